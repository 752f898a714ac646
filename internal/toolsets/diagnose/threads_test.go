package diagnose

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// Two readings one second apart: a thread that ran 0.6 s and waited 0.3 s
// for a CPU, one that slept, and one born in between (no split for it).
func TestBuildThreadsOffCPU(t *testing.T) {
	on := true
	before := map[int]hostinfo.ThreadTimes{
		1: {TID: 1, Comm: "hot", State: "R", UTime: 100, Schedstat: true, OnCPUNS: 5e9, RunqNS: 1e9},
		2: {TID: 2, Comm: "sleepy", State: "S", UTime: 3, Schedstat: true, OnCPUNS: 1e8, RunqNS: 1e6},
	}
	after := map[int]hostinfo.ThreadTimes{
		1: {TID: 1, Comm: "hot", State: "R", UTime: 160, Schedstat: true, OnCPUNS: 5.6e9, RunqNS: 1.3e9},
		2: {TID: 2, Comm: "sleepy", State: "S", UTime: 3, Schedstat: true, OnCPUNS: 1.01e8, RunqNS: 1e6},
		3: {TID: 3, Comm: "new", State: "S", Schedstat: true, OnCPUNS: 1e6},
	}
	out := buildThreads(threadsIn{PID: 1, IncludeOffCPU: &on}, before, after, 1)
	byTID := map[int]threadCPU{}
	for _, th := range out.Threads {
		byTID[th.TID] = th
	}
	hot, sleepy, born := byTID[1], byTID[2], byTID[3]
	if hot.RunqWaitPct == nil || *hot.RunqWaitPct != 30 || *hot.OffCPUPct != 10 || hot.CPUPercent != 60 {
		t.Errorf("hot: %+v", hot)
	}
	if sleepy.OffCPUPct == nil || *sleepy.OffCPUPct != 99.9 || *sleepy.RunqWaitPct != 0 {
		t.Errorf("sleepy: %+v", sleepy)
	}
	if born.OffCPUPct != nil || born.RunqWaitPct != nil {
		t.Errorf("a thread born during the interval has no split: %+v", born)
	}
	if !strings.Contains(strings.Join(out.Findings, "\n"), "thread hot (1) waited for a CPU 30% of the interval") {
		t.Errorf("findings: %q", out.Findings)
	}
}

// A python process with one spinning and one sleeping thread: the spinner
// leads, on CPU; the sleeper is off CPU nearly all the interval.
func TestThreadProfileLive(t *testing.T) {
	testutil.ExclusiveLoad(t)
	p, start := testutil.GatedPython(t, `import threading, time, ctypes
libc = ctypes.CDLL(None)
def spin():
    libc.prctl(15, b"spinner", 0, 0, 0)
    while True: pass
def doze():
    libc.prctl(15, b"dozer", 0, 0, 0)
    while True: time.sleep(0.05)
threading.Thread(target=spin, daemon=True).start()
threading.Thread(target=doze, daemon=True).start()
time.sleep(60)`)
	start()
	task := fmt.Sprintf("/proc/%d/task", p.Process.Pid)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if entries, _ := os.ReadDir(task); len(entries) == 3 {
			break // both threads run, and so live through the whole interval
		}
		if time.Now().After(deadline) {
			t.Fatal("the threads never started")
		}
	}
	s := newSet()
	out := tooltest.MustRun[threadsOut](t, context.Background(), s.threadProfile(), map[string]any{"pid": p.Process.Pid, "duration_seconds": 1, "include_offcpu": true})
	// On a busy machine the spinner gets a share of a CPU and waits for
	// the rest, and the dozer waits too each time it wakes: the kernel's own
	// split of the interval (on CPU, waiting for one, off) is what is
	// judged, not an idle machine's figures.
	spinner := out.Threads[0]
	if out.ThreadsTotal != 3 || spinner.Name != "spinner" || spinner.CPUPercent == 0 || spinner.OffCPUPct == nil || *spinner.OffCPUPct > 40 {
		t.Fatalf("the spinner should lead, always on CPU or waiting for one: %+v", out.Threads)
	}
	for _, th := range out.Threads {
		if th.Name == "dozer" && (th.OffCPUPct == nil || th.RunqWaitPct == nil || *th.OffCPUPct+*th.RunqWaitPct < 80 || *th.OffCPUPct < *spinner.OffCPUPct+30) {
			t.Errorf("the dozer should be off CPU, or waiting for one, nearly all the interval, and off far more than the spinner (%v %%): %+v %v %v",
				*spinner.OffCPUPct, th, deref(th.OffCPUPct), deref(th.RunqWaitPct))
		}
	}
	if _, terr := tooltest.Run[threadsOut](t, context.Background(), s.threadProfile(), "test", map[string]any{"pid": 1 << 22}); terr == nil || terr.Code != tool.PIDNotFound {
		t.Errorf("a pid that does not exist: %+v", terr)
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}
