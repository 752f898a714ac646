package hostinfo

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseStat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    procStat
		wantErr bool
	}{
		{
			name: "modern kernel",
			in: "cpu  19036 0 3270 246010 246 0 89 25 7 0\ncpu0 9631 0 1635 122900 125 0 38 12 0 0\n" +
				"cpu1 9405 0 1635 123110 120 0 50 13 0 0\nintr 521754 0 0\nctxt 787361\nbtime 1795315137\n",
			want: procStat{
				CPU: cpuTimes{User: 19036, System: 3270, Idle: 246010, Iowait: 246, SoftIRQ: 89, Steal: 25},
				PerCPU: []perCPUTimes{
					{0, cpuTimes{User: 9631, System: 1635, Idle: 122900, Iowait: 125, SoftIRQ: 38, Steal: 12}},
					{1, cpuTimes{User: 9405, System: 1635, Idle: 123110, Iowait: 120, SoftIRQ: 50, Steal: 13}},
				},
				BootTime: 1795315137, Ctxt: 787361, Intr: 521754,
			},
		},
		{
			name: "scheduler counters",
			in:   "cpu 1 2 3 4\nprocs_running 3\nprocs_blocked 1\n",
			want: procStat{CPU: cpuTimes{User: 1, Nice: 2, System: 3, Idle: 4}, ProcsRunning: 3, ProcsBlocked: 1},
		},
		{
			name: "2.4 kernel with four columns",
			in:   "cpu 1 2 3 4\ncpu0 1 2 3 4\n",
			want: procStat{CPU: cpuTimes{User: 1, Nice: 2, System: 3, Idle: 4}, PerCPU: []perCPUTimes{{0, cpuTimes{User: 1, Nice: 2, System: 3, Idle: 4}}}},
		},
		{name: "no aggregate line", in: "cpu0 1 2 3 4\nbtime 5\n", wantErr: true},
		{name: "too few columns", in: "cpu 1 2 3\n", wantErr: true},
		{name: "negative counter", in: "cpu 1 -2 3 4\n", wantErr: true},
		{name: "bad btime", in: "cpu 1 2 3 4\nbtime soon\n", wantErr: true},
		{name: "bad per-cpu line", in: "cpu 1 2 3 4\ncpu0 1 2\n", wantErr: true},
		{name: "negative run queue", in: "cpu 1 2 3 4\nprocs_running -1\n", wantErr: true},
		{name: "empty", in: "", wantErr: true},
		{name: "cpufreq-like name is not a cpu", in: "cpu 1 2 3 4\ncpux 1 2 3 4\n",
			want: procStat{CPU: cpuTimes{User: 1, Nice: 2, System: 3, Idle: 4}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseStat([]byte(tc.in))
			if (err != nil) != tc.wantErr {
				t.Fatalf("parseStat error = %v, wantErr %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("parseStat mismatch (-got +want):\n%s", diff)
			}
		})
	}
}

func TestCPUPercent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		before, after cpuTimes
		want          float64
	}{
		{name: "no time passed", before: cpuTimes{User: 5, Idle: 5}, after: cpuTimes{User: 5, Idle: 5}, want: 0},
		{name: "all idle", before: cpuTimes{Idle: 100}, after: cpuTimes{Idle: 200}, want: 0},
		{name: "all busy", before: cpuTimes{User: 100}, after: cpuTimes{User: 150, System: 50}, want: 100},
		{name: "iowait is idle", before: cpuTimes{}, after: cpuTimes{User: 25, Iowait: 25, Idle: 50}, want: 25},
		{name: "steal and irq are busy", before: cpuTimes{}, after: cpuTimes{Steal: 10, IRQ: 10, SoftIRQ: 5, Idle: 75}, want: 25},
		{name: "iowait went backwards", before: cpuTimes{Iowait: 100}, after: cpuTimes{Iowait: 90, User: 50}, want: 100},
		{name: "counters reset", before: cpuTimes{User: 100}, after: cpuTimes{User: 10}, want: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := cpuPercent(tc.before, tc.after); got != tc.want {
				t.Errorf("cpuPercent = %v, want %v", got, tc.want)
			}
		})
	}
}

func FuzzParseStat(f *testing.F) {
	f.Add([]byte("cpu  19036 0 3270 246010 246 0 89 25 0 0\ncpu0 9631 0 1635 122900 125 0 38 12 0 0\nbtime 1795315137\n"))
	f.Add([]byte("cpu 1 2 3 4\n"))
	f.Add([]byte("cpu 18446744073709551615 18446744073709551615 1 1 1 1 1 1\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := parseStat(b)
		if err != nil {
			return
		}
		// Sampling the same counters plus any growth must stay a percentage.
		later := st.CPU
		later.User += uint64(len(b))
		if p := cpuPercent(st.CPU, later); p < 0 || p > 100 {
			t.Errorf("cpuPercent = %v, want within [0,100]", p)
		}
	})
}
