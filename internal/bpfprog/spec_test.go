package bpfprog

import "testing"

// The warning perf_runq_latency gives when its per-process table is full
// relies on RunqMaxProcesses being the map's real size.
func TestRunqMaxProcessesMatchesMap(t *testing.T) {
	spec, err := loadRunqlat()
	if err != nil {
		t.Fatal(err)
	}
	if got := spec.Maps["hists"].MaxEntries; got != RunqMaxProcesses {
		t.Fatalf("hists holds %d entries, RunqMaxProcesses says %d", got, RunqMaxProcesses)
	}
}
