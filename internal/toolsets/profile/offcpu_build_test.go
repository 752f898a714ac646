package profile

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// Stand-ins for kernel addresses, named by the test's own symbol table.
var testSymbols = map[uint64]string{1: "anon_pipe_read", 2: "vfs_read", 3: "worker_thread", 4: "kthread"}

func testFrames(ips []uint64) []string {
	out := []string{}
	for _, ip := range ips {
		out = append(out, testSymbols[ip])
	}
	return out
}

// One window of a pipe reader woken by two threads of a writer, a sibling
// asleep throughout, a kernel worker woken by timers, a thread that exited
// before /proc was read, and hostmcp's own thread.
func TestBuildOffCPU(t *testing.T) {
	const ms = uint64(time.Millisecond)
	pipe := []uint64{1, 2}
	writer := func(tid uint32) *bpfprog.Waker {
		return &bpfprog.Waker{Context: "task", TID: tid, TGID: 50, Comm: "writer"}
	}
	win := offCPUWindow{
		frames: testFrames,
		self:   100,
		res: bpfprog.OffCPUResult{
			Window: 2000 * time.Millisecond,
			Waits: []bpfprog.OffCPUWait{
				{TID: 201, TGID: 200, State: 1, Stack: pipe, BeganBefore: true, Waker: writer(51), Count: 1, TotalNS: 300 * ms, MaxNS: 300 * ms},
				{TID: 201, TGID: 200, State: 1, Stack: pipe, Waker: writer(52), Count: 2, TotalNS: 1200 * ms, MaxNS: 800 * ms},
				{TID: 201, TGID: 200, State: 0, Count: 3, TotalNS: 3 * ms, MaxNS: 2 * ms},
				{TID: 301, TGID: 301, State: 0x402, Stack: []uint64{3, 4}, Waker: &bpfprog.Waker{Context: "timer"}, Count: 5, TotalNS: 100 * ms, MaxNS: 40 * ms},
				{TID: 101, TGID: 100, State: 1, Stack: pipe, Count: 1, TotalNS: 5 * ms, MaxNS: 5 * ms},
			},
			Waiting: []bpfprog.OffCPUWaiting{
				{TID: 201, TGID: 200, State: 1, WaitNS: 497 * ms},
				{TID: 401, TGID: 400, State: 2, WaitNS: 10 * ms},
			},
			Threads: map[uint32]bpfprog.OffCPUThread{201: {TGID: 200, Comm: "reader", RunNS: ms / 2}, 301: {TGID: 301, Comm: "kworker/0:1"}},
		},
		now: map[uint32]hostinfo.ThreadWait{201: {Comm: "reader", State: "S", WChan: "anon_pipe_read", Stack: []string{"anon_pipe_read", "vfs_read"}}},
		asleep: []asleepThread{{pid: 200, tid: 202, wait: hostinfo.ThreadWait{Comm: "reader-2", State: "S", WChan: "futex_do_wait",
			Stack: []string{"futex_do_wait", "futex_wait"}}}},
	}
	got := buildOffCPU(win)
	want := []waitTask{
		{Task: "reader", TID: 201, PID: 200, OffCPUMS: 2000, RunMS: 0.5, ByState: map[string]float64{"sleeping": 1997, "preempted": 3}, TopReason: "anon_pipe_read",
			Waits: []waitReason{
				{Reason: "anon_pipe_read", Kind: "pipe", State: "sleeping", Episodes: 4, TotalMS: 1997, MeanMS: 499.25, MaxMS: 800, BeganBefore: 1, Waiting: true,
					Stack: []string{"anon_pipe_read", "vfs_read"}, Wakers: []wakerInfo{{PID: 50, Comm: "writer", Episodes: 3}}},
				{Reason: "preempted", State: "preempted", Episodes: 3, TotalMS: 3, MeanMS: 1, MaxMS: 2},
			}},
		{Task: "reader-2", TID: 202, PID: 200, OffCPUMS: 2000, ByState: map[string]float64{"sleeping": 2000}, TopReason: "futex_do_wait",
			Waits: []waitReason{{Reason: "futex_do_wait", Kind: "futex", State: "sleeping", Episodes: 1, TotalMS: 2000, MeanMS: 2000, MaxMS: 2000,
				BeganBefore: 1, Waiting: true, Stack: []string{"futex_do_wait", "futex_wait"}}}},
		{Task: "kworker/0:1", TID: 301, PID: 301, OffCPUMS: 100, ByState: map[string]float64{"idle": 100}, TopReason: "worker_thread",
			Waits: []waitReason{{Reason: "worker_thread", State: "idle", Episodes: 5, TotalMS: 100, MeanMS: 20, MaxMS: 40,
				Stack: []string{"worker_thread", "kthread"}, Wakers: []wakerInfo{{Comm: "[timer]", Episodes: 5}}}}},
		{Task: "", TID: 401, PID: 400, OffCPUMS: 10, ByState: map[string]float64{"uninterruptible": 10}, TopReason: "[exited]",
			Waits: []waitReason{{Reason: "[exited]", State: "uninterruptible", Episodes: 1, TotalMS: 10, MeanMS: 10, MaxMS: 10, Waiting: true}}},
	}
	if diff := cmp.Diff(want, got.tasks); diff != "" {
		t.Errorf("tasks (-want +got):\n%s", diff)
	}
	if got.ownLeft != 1 {
		t.Errorf("own threads left out: %d, want 1", got.ownLeft)
	}
	wantStates := map[string]float64{"sleeping": 3997, "preempted": 3, "idle": 100, "uninterruptible": 10}
	if diff := cmp.Diff(wantStates, got.byState); diff != "" {
		t.Errorf("by state (-want +got):\n%s", diff)
	}
	if r := got.reasons; len(r) != 5 || r[0].Reason != "futex_do_wait" || r[1].Reason != "anon_pipe_read" || r[1].Threads != 1 || r[1].Episodes != 4 || r[1].MaxMS != 800 {
		t.Errorf("top reasons %+v", r)
	}
}

// A process's findings name each place its threads waited and who woke
// them; idle kernel work and preemption do not crowd them out.
func TestOffCPUFindingsOfOneProcess(t *testing.T) {
	tables := buildOffCPU(offCPUWindow{frames: testFrames, res: bpfprog.OffCPUResult{Window: time.Second, Waits: []bpfprog.OffCPUWait{
		{TID: 201, TGID: 200, State: 1, Stack: []uint64{1, 2}, Waker: &bpfprog.Waker{Context: "task", TID: 7, TGID: 7, Comm: "writer"}, Count: 2, TotalNS: uint64(900 * time.Millisecond), MaxNS: uint64(600 * time.Millisecond)},
		{TID: 201, TGID: 200, State: 0, Count: 1, TotalNS: uint64(200 * time.Millisecond), MaxNS: uint64(200 * time.Millisecond)},
	}}})
	out := finishOffCPU(offCPUOut{DurationSeconds: 1, Tasks: tables.tasks, TopReasons: tables.reasons, ByState: tables.byState}, schedIn{PID: 200})
	want := []string{
		"tasks waited 200 ms runnable for a CPU: CPU contention (see perf_sched_latency)",
		"1 threads waited in anon_pipe_read (pipe): 2 episodes, 900 ms in all over the 1.0 s window, longest 600 ms; woken most by writer (pid 7) (2 episodes)",
	}
	if diff := cmp.Diff(want, out.Findings); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// A pid that cannot exist (pid_max itself) is refused before anything runs.
func TestOffCPUUnknownPID(t *testing.T) {
	b, err := os.ReadFile("/proc/sys/kernel/pid_max")
	if err != nil {
		t.Fatal(err)
	}
	pidMax, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	s := New(&Deps{Host: hostinfo.New(hostinfo.Roots{})})
	_, terr := tooltest.Run[offCPUOut](t, context.Background(), s.offCPU(), "test", map[string]any{"pid": min(pidMax, 1<<22), "duration_seconds": 1})
	if terr == nil || terr.Code != tool.PIDNotFound {
		t.Fatalf("pid %d: %+v, want PID_NOT_FOUND", pidMax, terr)
	}
}
