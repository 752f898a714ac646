package stacks

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A system-wide profile of a half-idle machine: the idle loop is counted
// apart, and the tables show the work, as shares of all samples.
func TestSummarizeSetsIdleApart(t *testing.T) {
	idle := []Frame{{Func: "pvm_safe_halt_hc", Module: "[kernel.kallsyms]"}, {Func: "do_idle", Module: "[kernel.kallsyms]"}}
	samples := []Sample{
		{PID: 0, TID: 0, Comm: "swapper", Count: 50, Stack: idle},
		{PID: 7, TID: 7, Comm: "burn", Count: 30, Stack: []Frame{{Func: "spin"}, {Func: "main"}}},
		{PID: 7, TID: 8, Comm: "burn", Count: 10, Stack: []Frame{{Func: "hash"}, {Func: "spin"}, {Func: "main"}}},
		{PID: 9, TID: 9, Comm: "sh", Count: 10, Stack: []Frame{{Func: "read"}}},
	}
	s := Summarize(samples, 2)
	if s.TotalSamples != 100 || s.IdleSamples != 50 || s.IdlePercent != 50 {
		t.Fatalf("total %d, idle %d (%v%%), want 100, 50 (50%%)", s.TotalSamples, s.IdleSamples, s.IdlePercent)
	}
	wantSelf := []FuncShare{{Function: "spin", Samples: 30, Percent: 30}, {Function: "hash", Samples: 10, Percent: 10}}
	if d := cmp.Diff(wantSelf, s.TopSelf); d != "" {
		t.Errorf("top self (-want +got):\n%s", d)
	}
	wantTotal := []FuncShare{{Function: "main", Samples: 40, Percent: 40}, {Function: "spin", Samples: 40, Percent: 40}}
	if d := cmp.Diff(wantTotal, s.TopTotal); d != "" {
		t.Errorf("top total (-want +got):\n%s", d)
	}
	wantProcs := []ProcShare{{PID: 7, Comm: "burn", Samples: 40, Percent: 40}, {PID: 9, Comm: "sh", Samples: 10, Percent: 10}}
	if d := cmp.Diff(wantProcs, s.Processes); d != "" {
		t.Errorf("processes (-want +got):\n%s", d)
	}
	if len(s.HotStacks) != 3 || s.HotStacks[0] != (StackShare{Stack: "burn;main;spin", Samples: 30, Percent: 30}) {
		t.Errorf("hottest stacks: %+v", s.HotStacks)
	}
}

// A machine with nothing to do says so instead of listing nothing.
func TestSummarizeAllIdle(t *testing.T) {
	s := Summarize([]Sample{{PID: 0, Comm: "swapper", Count: 4, Stack: []Frame{{Func: "do_idle"}}}}, 5)
	if s.IdlePercent != 100 || s.TopSelf == nil || len(s.TopSelf) != 0 || s.Processes == nil || len(s.Processes) != 0 || s.HotStacks == nil || len(s.HotStacks) != 0 {
		t.Errorf("all idle: %+v", s)
	}
}
