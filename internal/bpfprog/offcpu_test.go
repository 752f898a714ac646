package bpfprog

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The program's waker contexts, as OffCPU hands them on.
func TestOffCPUWaker(t *testing.T) {
	comm := [16]byte{'w', 'r', 'i', 't', 'e', 'r'}
	for _, tc := range []struct {
		ctx  uint16
		want *Waker
	}{
		{wakerNone, nil},
		{wakerTask, &Waker{Context: "task", TID: 12, TGID: 11, Comm: "writer"}},
		{wakerHardirq, &Waker{Context: "hardirq"}},
		{wakerTimer, &Waker{Context: "timer"}},
		{wakerSoftirq + 3, &Waker{Context: "softirq NET_RX"}},
		{wakerSoftirq + 9, &Waker{Context: "softirq RCU"}},
		{wakerSoftirq + 12, &Waker{Context: "softirq 12"}},
	} {
		got := waker(offWaitKey{WakerCtx: tc.ctx, WakerTID: 12, WakerTGID: 11}, offWaitVal{WakerComm: comm})
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("context %d (-want +got):\n%s", tc.ctx, diff)
		}
	}
}

func TestTrimZeros(t *testing.T) {
	if got := trimZeros([]uint64{3, 2, 1, 0, 0}); !slices.Equal(got, []uint64{3, 2, 1}) {
		t.Errorf("%v", got)
	}
	if got := trimZeros([]uint64{0, 5}); len(got) != 0 {
		t.Errorf("%v", got)
	}
}

// perf_offcpu_profile's warnings name the limits of the program's maps.
func TestOffCPULimitsMatchMaps(t *testing.T) {
	spec, err := loadOffcpu()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int{"waits": OffCPUMaxWaits, "stacks": OffCPUMaxStacks, "offcpu": OffCPUMaxThreads, "threads": OffCPUMaxThreads, "wakers": OffCPUMaxThreads} {
		if got := spec.Maps[name].MaxEntries; got != uint32(want) {
			t.Errorf("map %s holds %d entries, the Go side says %d", name, got, want)
		}
	}
	if got := spec.Maps["stacks"].ValueSize; got != 8*offCPUStackDepth {
		t.Errorf("a stack holds %d bytes, the Go side reads %d", got, 8*offCPUStackDepth)
	}
}
