package procs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParsePIDStat(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Stat
		bad  bool
	}{
		{
			name: "process",
			in:   "4242 (nginx: worker) S 4240 4240 4240 0 -1 4194624 120 0 0 0 310 95 0 0 20 0 4 0 281234 1073741824 2560 18446744073709551615 1 1 0 0 0 0 0 4096 0 0 0 0 17 1 0 0 0 0 0\n",
			want: Stat{PID: 4242, PPID: 4240, Comm: "nginx: worker", State: "S", Flags: 4194624, UTime: 310, STime: 95, Threads: 4, StartTicks: 281234, RSSPages: 2560, Processor: 1},
		},
		{
			name: "comm with parentheses and spaces",
			in:   "7 (a) (b) c) R 1 7 7 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 99 0 0 0",
			want: Stat{PID: 7, PPID: 1, Comm: "a) (b) c", State: "R", UTime: 1, STime: 2, Threads: 1, StartTicks: 99},
		},
		{
			name: "kernel thread",
			in:   "12 (kworker/0:1-events) I 2 0 0 0 -1 69238880 0 0 0 0 0 40 0 0 20 0 1 0 15 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 0 0 0 0 0 0",
			want: Stat{PID: 12, PPID: 2, Comm: "kworker/0:1-events", State: "I", Flags: 69238880, STime: 40, Threads: 1, StartTicks: 15},
		},
		{
			name: "thread",
			in:   "7 (a b) R 1 1 1 0 -1 0 0 0 0 0 5 6 0 0 20 0 1 0 100 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 3 0",
			want: Stat{PID: 7, PPID: 1, Comm: "a b", State: "R", UTime: 5, STime: 6, Threads: 1, StartTicks: 100, Processor: 3},
		},
		{name: "no comm", in: "1 init S 0", bad: true},
		{name: "through stime only", in: "8 (x) y)) S 1 1 1 0 -1 0 0 0 0 0 1 2 0", bad: true},
		{name: "pid not positive", in: "0 (x) S 1 1 1 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 99 0 0 0", bad: true},
		{name: "short", in: "1 (init) S 0 1 1", bad: true},
		{name: "not numeric", in: "1 (x) S z 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", bad: true},
		{name: "empty", in: "", bad: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseStat([]byte(tc.in))
			if tc.bad {
				if err == nil {
					t.Fatalf("want an error, got %+v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
		})
	}
}

func TestParseStatusIDs(t *testing.T) {
	got, err := parseStatusIDs([]byte("Name:\tsudo\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t900\nNgid:\t0\nPid:\t900\nPPid:\t899\nTracerPid:\t0\nUid:\t1000\t0\t0\t0\nGid:\t1000\t0\t0\t0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, statusIDs{TGID: 900, RUID: 1000, EUID: 0}); diff != "" {
		t.Errorf("(-got +want):\n%s", diff)
	}
	for _, bad := range []string{"", "Tgid:\t5\n", "Uid:\t1 2 3 4\n", "Tgid:\tx\nUid:\t0 0 0 0\n", "Tgid:\t5\nUid:\t0\n"} {
		if _, err := parseStatusIDs([]byte(bad)); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func TestJoinArgv(t *testing.T) {
	tests := []struct {
		in    string
		limit int
		want  string
		cut   bool
	}{
		{"python3\x00-m\x00http.server\x00", 64, "python3 -m http.server", false},
		{"abcdef\x00gh\x00", 4, "abcd", true},
		{"ab\x00", 3, "ab", false},
		{"ab\x00c", 3, "ab ", true},
		{"\xff\xfe\x00", 10, "\uFFFD", false},
		{"", 10, "", false},
	}
	for _, tc := range tests {
		got, cut := joinArgv([]byte(tc.in), tc.limit)
		if got != tc.want || cut != tc.cut {
			t.Errorf("joinArgv(%q, %d) = %q, %v; want %q, %v", tc.in, tc.limit, got, cut, tc.want, tc.cut)
		}
	}
}

func TestParsePIDMax(t *testing.T) {
	if n, err := parsePIDMax([]byte("4194304\n")); err != nil || n != 4194304 {
		t.Errorf("got %d, %v", n, err)
	}
	for _, bad := range []string{"", "1", "-5", "x"} {
		if _, err := parsePIDMax([]byte(bad)); err == nil {
			t.Errorf("%q: want an error", bad)
		}
	}
}

func FuzzParsePIDStat(f *testing.F) {
	f.Add([]byte("4242 (nginx: worker) S 4240 4240 4240 0 -1 4194624 120 0 0 0 310 95 0 0 20 0 4 0 281234 1073741824 2560 0"))
	f.Add([]byte("7 (a) (b) c) R 1 7 7 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 99 0 0 0"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseStat(b)
		if err == nil && (s.PID < 1 || len(s.Comm) > len(b)) {
			t.Errorf("implausible %+v", s)
		}
	})
}

func FuzzParseStatusIDs(f *testing.F) {
	f.Add([]byte("Tgid:\t900\nUid:\t1000\t0\t0\t0\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ids, err := parseStatusIDs(b)
		if err == nil && (ids.TGID <= 0 || ids.RUID < 0 || ids.EUID < 0) {
			t.Errorf("accepted %+v", ids)
		}
	})
}
