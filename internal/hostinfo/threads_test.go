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

func FuzzParseSchedstat(f *testing.F) {
	f.Add([]byte("1144808163 875716 87\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _, _ = parseSchedstat(b)
	})
}
