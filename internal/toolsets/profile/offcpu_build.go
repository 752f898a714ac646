package profile

import (
	"cmp"
	"slices"
	"strconv"
	"time"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/stacks"
)

// waitReason is one thing a thread waited on in the window.
type waitReason struct {
	Reason      string      `json:"reason" jsonschema:"the kernel function the thread waited in, as /proc/PID/wchan names it (anon_pipe_read, futex_wait_queue, do_epoll_wait, folio_wait_bit_common, jbd2_log_wait_commit...), or preempted (runnable, waiting for a CPU)"`
	Kind        string      `json:"kind,omitempty" jsonschema:"what that is, in a word, when the stack tells: pipe, futex, epoll, poll, sleep, journal, disk I/O, socket, child, signal, terminal, io_uring, ipc"`
	State       string      `json:"state" jsonschema:"sleeping (S), uninterruptible (D: disk or NFS I/O), idle (a kernel thread with no work), preempted, stopped, other"`
	Episodes    int         `json:"episodes" jsonschema:"waits seen in the window, those cut by its start or end included"`
	TotalMS     float64     `json:"total_ms" jsonschema:"their time inside the window"`
	MeanMS      float64     `json:"mean_ms"`
	MaxMS       float64     `json:"max_ms"`
	BeganBefore int         `json:"began_before_window,omitempty" jsonschema:"episodes already going when the window opened: only their part inside it counts"`
	Waiting     bool        `json:"still_waiting,omitempty" jsonschema:"one episode had not ended when the window closed: counted up to the close"`
	Stack       []string    `json:"stack,omitempty" jsonschema:"kernel frames from the reason outwards, leaf first, at most 8 (of the stack with the most time)"`
	Wakers      []wakerInfo `json:"wakers,omitempty" jsonschema:"what ended the episodes, most first, at most 3"`
}

// wakerInfo is who woke a thread: a process, or an interrupt context.
type wakerInfo struct {
	PID      int    `json:"pid,omitempty" jsonschema:"the waking process"`
	TID      int    `json:"tid,omitempty" jsonschema:"the waking thread, when one thread of it woke every episode"`
	Comm     string `json:"comm" jsonschema:"the waking thread's name, or an interrupt context: [hardirq], [timer] (a sleep or timeout ran out), [softirq NET_RX]..."`
	Episodes int    `json:"episodes"`
}

// wakerAgg gathers the episodes one process (or context) woke.
type wakerAgg struct {
	wakerInfo
	tids map[int]bool
}

// waitTask is one thread's time off the CPU.
type waitTask struct {
	Task      string             `json:"task"`
	TID       int                `json:"tid"`
	PID       int                `json:"pid"`
	OffCPUMS  float64            `json:"off_cpu_ms" jsonschema:"time off the CPU inside the window"`
	RunMS     float64            `json:"run_ms" jsonschema:"time on a CPU inside the window, from its first switch seen"`
	ByState   map[string]float64 `json:"off_cpu_ms_by_state" jsonschema:"sleeping (S: locks, timers, network, pipes), uninterruptible (D: disk I/O), preempted (runnable, waiting for a CPU), idle (a kernel thread with no work), stopped, other"`
	TopReason string             `json:"top_reason" jsonschema:"the reason of the wait with the most time (see waits); with mechanism perf sched, only the state"`
	Waits     []waitReason       `json:"waits,omitempty" jsonschema:"what it waited on, by time, most first, at most 5"`
}

// reasonTotal is one wait reason over every thread.
type reasonTotal struct {
	Reason   string  `json:"reason"`
	Kind     string  `json:"kind,omitempty"`
	State    string  `json:"state"`
	Threads  int     `json:"threads"`
	Episodes int     `json:"episodes"`
	TotalMS  float64 `json:"total_ms"`
	MaxMS    float64 `json:"max_ms"`
}

const (
	maxWaitsPerTask  = 5
	maxStackFrames   = 8
	maxWakersPerWait = 3
	maxTopReasons    = 10
)

// offCPUWindow is what one eBPF window saw, with what /proc said at its
// end about the threads still waiting.
type offCPUWindow struct {
	res    bpfprog.OffCPUResult
	frames func([]uint64) []string // a kernel stack's function names, from the wait outwards
	// Where the threads off the CPU at the end wait, by tid.
	now map[uint32]hostinfo.ThreadWait
	// Threads off the CPU for the whole window: no switch in or out seen.
	asleep []asleepThread
	self   int // hostmcp's pid, whose threads are left out
}

type asleepThread struct {
	pid, tid int
	wait     hostinfo.ThreadWait
}

// waitAgg gathers one thread's episodes of one reason and state.
type waitAgg struct {
	w              waitReason
	totalNS, maxNS uint64
	stackNS        uint64 // the time of the stack shown
	wakers         map[[2]string]*wakerAgg
}

type taskAgg struct {
	t     waitTask
	waits map[[2]string]*waitAgg
	offNS uint64
}

// offCPUTables turns a window into per-thread tables (every thread that
// waited, most off-CPU time first), wait reasons over all threads, state
// totals, and how many of hostmcp's own threads were left out.
type offCPUTables struct {
	tasks   []waitTask
	reasons []reasonTotal
	byState map[string]float64
	ownLeft int
}

func buildOffCPU(win offCPUWindow) offCPUTables {
	b := &tableBuilder{win: win, tasks: map[uint32]*taskAgg{}, own: map[uint32]bool{}}
	for _, w := range win.res.Waits {
		frames := []string(nil)
		reason := "preempted"
		if w.State != 0 {
			frames = win.frames(w.Stack)
			reason = firstOr(frames, "[unknown]")
		}
		a := b.agg(w.TID, w.TGID, "", reason, stacks.TaskState(w.State), frames, w.TotalNS)
		if a == nil {
			continue
		}
		a.w.Episodes += int(w.Count)
		a.totalNS += w.TotalNS
		a.maxNS = max(a.maxNS, w.MaxNS)
		if w.BeganBefore {
			a.w.BeganBefore += int(w.Count)
		}
		if w.Waker != nil && w.State != 0 {
			a.addWaker(w.Waker, int(w.Count))
		}
	}
	for _, w := range win.res.Waiting {
		state, reason, frames := stacks.TaskState(w.State), "preempted", []string(nil)
		if w.State != 0 {
			reason, frames = whereNow(win.now[w.TID])
		}
		b.ongoing(w.TID, w.TGID, win.now[w.TID].Comm, reason, state, frames, w.WaitNS, false)
	}
	for _, s := range win.asleep {
		reason, frames := whereNow(s.wait)
		b.ongoing(uint32(s.tid), uint32(s.pid), s.wait.Comm, reason, stacks.OffCPUReason(s.wait.State), frames, uint64(win.res.Window), true)
	}
	return b.tables()
}

// whereNow is the reason and stack /proc gave for a thread still waiting;
// one that exited before /proc was read is [exited].
func whereNow(w hostinfo.ThreadWait) (string, []string) {
	if w.State == "" {
		return "[exited]", nil
	}
	frames := w.Stack
	if w.WChan != "" {
		// The stack from the wait channel outwards, as eBPF stacks are.
		if i := slices.Index(frames, w.WChan); i >= 0 {
			frames = frames[i:]
		}
		return w.WChan, frames
	}
	return firstOr(frames, "[unknown]"), frames
}

func firstOr(s []string, def string) string {
	if len(s) == 0 {
		return def
	}
	return s[0]
}

type tableBuilder struct {
	win   offCPUWindow
	tasks map[uint32]*taskAgg
	own   map[uint32]bool
}

// agg is the aggregate of tid's episodes of reason in state, made on first
// use; nil for hostmcp's own threads, which are counted instead. The
// thread's name is its latest one seen switching, else comm.
func (b *tableBuilder) agg(tid, tgid uint32, comm, reason, state string, frames []string, ns uint64) *waitAgg {
	if int(tgid) == b.win.self {
		b.own[tid] = true
		return nil
	}
	t := b.tasks[tid]
	if t == nil {
		th := b.win.res.Threads[tid]
		t = &taskAgg{t: waitTask{Task: cmp.Or(th.Comm, comm), TID: int(tid), PID: int(tgid), ByState: map[string]float64{}, RunMS: nsToMS(th.RunNS)}, waits: map[[2]string]*waitAgg{}}
		b.tasks[tid] = t
	}
	key := [2]string{reason, state}
	a := t.waits[key]
	if a == nil {
		a = &waitAgg{w: waitReason{Reason: reason, State: state}, wakers: map[[2]string]*wakerAgg{}}
		t.waits[key] = a
	}
	if len(frames) > 0 && (a.w.Stack == nil || ns > a.stackNS) {
		a.w.Stack, a.stackNS = frames[:min(len(frames), maxStackFrames)], ns
		a.w.Kind = stacks.WaitKind(frames)
	}
	return a
}

// ongoing counts an episode still going when the window closed (and, with
// whole, going since before it opened).
func (b *tableBuilder) ongoing(tid, tgid uint32, comm, reason, state string, frames []string, ns uint64, whole bool) {
	a := b.agg(tid, tgid, comm, reason, state, frames, ns)
	if a == nil {
		return
	}
	a.w.Episodes++
	a.w.Waiting = true
	if whole {
		a.w.BeganBefore++
	}
	a.totalNS += ns
	a.maxNS = max(a.maxNS, ns)
}

// addWaker counts n episodes woken by w, per process: the threads of one
// take turns (a Go program's writes come from any of its threads).
func (a *waitAgg) addWaker(w *bpfprog.Waker, n int) {
	key := [2]string{"[" + w.Context + "]", ""}
	if w.Context == "task" {
		key = [2]string{"task", strconv.Itoa(int(w.TGID))}
	}
	wi := a.wakers[key]
	if wi == nil {
		wi = &wakerAgg{wakerInfo: wakerInfo{Comm: key[0]}, tids: map[int]bool{}}
		if w.Context == "task" {
			wi.PID, wi.Comm = int(w.TGID), w.Comm
		}
		a.wakers[key] = wi
	}
	if w.Context == "task" {
		wi.tids[int(w.TID)] = true
	}
	wi.Episodes += n
}

func (b *tableBuilder) tables() offCPUTables {
	out := offCPUTables{byState: map[string]float64{}, ownLeft: len(b.own), tasks: []waitTask{}}
	reasons := map[[2]string]*reasonTotal{}
	for _, t := range b.tasks {
		for _, a := range t.waits {
			a.finish()
			t.offNS += a.totalNS
			t.t.ByState[a.w.State] += nsToMS(a.totalNS)
			out.byState[a.w.State] += nsToMS(a.totalNS)
			t.t.Waits = append(t.t.Waits, a.w)
			r := reasons[[2]string{a.w.Reason, a.w.State}]
			if r == nil {
				r = &reasonTotal{Reason: a.w.Reason, State: a.w.State, Kind: a.w.Kind}
				reasons[[2]string{a.w.Reason, a.w.State}] = r
			}
			r.Threads++
			r.Episodes += a.w.Episodes
			r.TotalMS += a.w.TotalMS
			r.MaxMS = max(r.MaxMS, a.w.MaxMS)
		}
		if t.offNS == 0 {
			continue
		}
		slices.SortFunc(t.t.Waits, func(x, y waitReason) int {
			return cmp.Or(cmp.Compare(y.TotalMS, x.TotalMS), cmp.Compare(x.Reason, y.Reason))
		})
		t.t.Waits = t.t.Waits[:min(len(t.t.Waits), maxWaitsPerTask)]
		t.t.TopReason = t.t.Waits[0].Reason
		t.t.OffCPUMS = nsToMS(t.offNS)
		for s, ms := range t.t.ByState {
			t.t.ByState[s] = figures.Round3(ms)
		}
		out.tasks = append(out.tasks, t.t)
	}
	slices.SortFunc(out.tasks, func(x, y waitTask) int {
		return cmp.Or(cmp.Compare(y.OffCPUMS, x.OffCPUMS), cmp.Compare(x.TID, y.TID))
	})
	for s, ms := range out.byState {
		out.byState[s] = figures.Round3(ms)
	}
	for _, r := range reasons {
		r.TotalMS = figures.Round3(r.TotalMS)
		out.reasons = append(out.reasons, *r)
	}
	slices.SortFunc(out.reasons, func(x, y reasonTotal) int {
		return cmp.Or(cmp.Compare(y.TotalMS, x.TotalMS), cmp.Compare(x.Reason, y.Reason), cmp.Compare(x.State, y.State))
	})
	out.reasons = out.reasons[:min(len(out.reasons), maxTopReasons)]
	return out
}

// finish fills in the figures of an aggregate.
func (a *waitAgg) finish() {
	a.w.TotalMS, a.w.MaxMS = nsToMS(a.totalNS), nsToMS(a.maxNS)
	if a.w.Episodes > 0 {
		a.w.MeanMS = nsToMS(a.totalNS / uint64(a.w.Episodes))
	}
	for _, wi := range a.wakers {
		if len(wi.tids) == 1 {
			for tid := range wi.tids {
				wi.TID = tid
			}
		}
		a.w.Wakers = append(a.w.Wakers, wi.wakerInfo)
	}
	slices.SortFunc(a.w.Wakers, func(x, y wakerInfo) int {
		return cmp.Or(cmp.Compare(y.Episodes, x.Episodes), cmp.Compare(x.Comm, y.Comm), cmp.Compare(x.TID, y.TID))
	})
	a.w.Wakers = a.w.Wakers[:min(len(a.w.Wakers), maxWakersPerWait)]
}

func nsToMS(ns uint64) float64 { return figures.Round3(float64(ns) / float64(time.Millisecond)) }
