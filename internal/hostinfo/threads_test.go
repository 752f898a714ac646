package hostinfo

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A fixture captured from a python process with a spinning thread named
// "worker (hot) 1" and a sleeping one named "idle)": comms with spaces and
// parentheses, as prctl allows.
func TestReadThreadsFixture(t *testing.T) {
	t.Parallel()
	h := New(Roots{Proc: "testdata/threads/proc"})
	got, err := h.ReadThreads(12249, true)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(got, func(a, b ThreadTimes) int { return a.TID - b.TID })
	want := []ThreadTimes{
		{TID: 12249, Comm: "python3", State: "S", UTime: 12, STime: 2, Processor: 0, Schedstat: true, OnCPUNS: 146053552, RunqNS: 2206252},
		{TID: 12291, Comm: "worker (hot) 1", State: "R", UTime: 113, STime: 0, Processor: 1, Schedstat: true, OnCPUNS: 1144808163, RunqNS: 875716},
		{TID: 12292, Comm: "idle)", State: "S", UTime: 1, STime: 0, Processor: 0, Schedstat: true, OnCPUNS: 13611092, RunqNS: 5881467},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("threads (-want +got):\n%s", diff)
	}
	plain, err := h.ReadThreads(12249, false)
	if err != nil || len(plain) != 3 || plain[0].Schedstat {
		t.Errorf("without schedstat: %+v, %v", plain, err)
	}
	if _, err := h.ReadThreads(99999, false); !errors.Is(err, ErrPIDNotFound) {
		t.Errorf("a missing pid: %v", err)
	}
}

func TestParseTaskStat(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want taskStat
		bad  bool
	}{
		{in: "7 (a b) R 1 1 1 0 -1 0 0 0 0 0 5 6 0 0 20 0 1 0 100 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 3 0", want: taskStat{PID: 7, Comm: "a b", State: "R", UTime: 5, STime: 6, Processor: 3}},
		{in: "8 (x) y)) S 1 1 1 0 -1 0 0 0 0 0 1 2 0", want: taskStat{PID: 8, Comm: "x) y)", State: "S", UTime: 1, STime: 2}},
		{in: "9 (short) S 1 2", bad: true},
		{in: "nopid (x) S 1 1 1 0 -1 0 0 0 0 0 1 2 0", bad: true},
		{in: "10 x S", bad: true},
	} {
		got, err := parseTaskStat([]byte(tc.in))
		if (err != nil) != tc.bad || (!tc.bad && got != tc.want) {
			t.Errorf("%q: %+v, %v", tc.in, got, err)
		}
	}
}

func TestParseSchedstat(t *testing.T) {
	t.Parallel()
	on, runq, err := parseSchedstat([]byte("1144808163 875716 87\n"))
	if err != nil || on != 1144808163 || runq != 875716 {
		t.Errorf("%d %d %v", on, runq, err)
	}
	for _, bad := range []string{"", "12", "a 1 2", "1 -2 3"} {
		if _, _, err := parseSchedstat([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func FuzzParseTaskStat(f *testing.F) {
	f.Add([]byte("12291 (worker (hot) 1) R 12245 12245 24293 0 -1 4194368 4 6514 0 0 113 0 14 20 20 0 3 0 5 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := parseTaskStat(b)
		if err == nil && (st.State == "" || st.PID < 1) {
			t.Errorf("%q: parsed without a state or a process id: %+v", b, st)
		}
	})
}

func FuzzParseSchedstat(f *testing.F) {
	f.Add([]byte("1144808163 875716 87\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _, _ = parseSchedstat(b)
	})
}
