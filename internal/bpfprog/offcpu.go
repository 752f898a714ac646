package bpfprog

import (
	"context"
	"fmt"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/link"
	"golang.org/x/sys/unix"
)

// OffCPUMechanism is how OffCPU measures.
const OffCPUMechanism = "eBPF on BTF tracepoints sched_switch (episodes, and the kernel stack each thread waited on, " +
	"as /proc/PID/stack shows it) and sched_waking (the waker), with irq, softirq and hrtimer entry and exit " +
	"to tell wakeups from interrupts; aggregated in the kernel over the whole window"

// Limits of the program's maps (bpf/offcpu.bpf.c): past them, what does
// not fit is counted in OffCPULost rather than kept.
const (
	OffCPUMaxWaits   = 16384 // distinct (thread, stack, state, waker) rows
	OffCPUMaxStacks  = 8192  // distinct kernel stacks
	OffCPUMaxThreads = 65536 // threads seen, and threads off the CPU at once
	offCPUStackDepth = 32    // frames kept of a kernel stack (STACK_DEPTH)
)

// Waker contexts as the program encodes them (wait_key.waker_ctx).
const (
	wakerNone    = 0
	wakerTask    = 1
	wakerHardirq = 2
	wakerTimer   = 3
	wakerSoftirq = 4 // + the softirq's number
)

// softirqNames are the kernel's softirq_to_name, by number.
var softirqNames = [...]string{"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU"}

// OffCPUOptions are perf_offcpu_profile's settings.
type OffCPUOptions struct {
	TGID uint32 // only this process's threads; 0: every task
}

// Waker is what woke a thread: a task (Context "task", with its ids and
// name), or an interrupt context that ran under whatever task it
// interrupted: "hardirq", "timer" (an hrtimer callback: a sleep or a
// timeout that ran out), or "softirq NET_RX" and the like.
type Waker struct {
	Context   string
	TID, TGID uint32
	Comm      string
}

// OffCPUWait is one aggregate of episodes off the CPU: a thread's, with one
// kernel stack, one state and one waker.
type OffCPUWait struct {
	TID, TGID uint32
	// State is the kernel's task state when the thread left the CPU (for an
	// episode that began before the window, when it was woken); 0 means
	// runnable: preempted, waiting for a CPU.
	State uint32
	// Stack is the kernel stack the thread waited on, leaf first, without
	// the scheduler's frames; nil when preempted, or when it was lost.
	Stack []uint64
	// BeganBefore: these episodes began before the window, and count from
	// its start.
	BeganBefore bool
	Waker       *Waker // nil when no wakeup was seen (preempted)
	Count       uint64
	TotalNS     uint64
	MaxNS       uint64
}

// OffCPUWaiting is a thread off the CPU when the window closed, since a
// switch out inside it (the waits that began before the window and had not
// ended by its end leave no trace in the kernel: find them in /proc).
type OffCPUWaiting struct {
	TID, TGID uint32
	State     uint32
	WaitNS    uint64 // from its switch out to the window's end
}

// OffCPUThread is a thread that came on a CPU in the window: its process,
// its latest name, and its CPU time counted from its first switch in.
type OffCPUThread struct {
	TGID  uint32
	Comm  string
	RunNS uint64
}

// OffCPULost counts what the program's maps had no room for.
type OffCPULost struct {
	Waits   uint64 // episodes not counted: too many distinct rows
	Stacks  uint64 // episodes counted without their stack
	Threads uint64 // switches not followed: too many threads
	// Switches onto a CPU with no switch off seen since the thread's last
	// one: the kernel's sched_switch did not report it (seen for threads of
	// some sandbox supervisors), so those waits are unknown and not counted.
	Unmatched uint64
}

// OffCPUResult is a window's off-CPU time.
type OffCPUResult struct {
	Window  time.Duration
	Waits   []OffCPUWait
	Waiting []OffCPUWaiting
	Threads map[uint32]OffCPUThread
	Lost    OffCPULost
}

// Mirrors of the program's structs.
type (
	offWaitKey struct {
		Stack                                 uint64
		TID, TGID, State, WakerTID, WakerTGID uint32
		WakerCtx, Before                      uint16
	}
	offWaitVal struct {
		Count, TotalNS, MaxNS uint64
		WakerComm             [16]byte
	}
	offStart struct {
		TS          uint64
		State, TGID uint32
	}
	offThread struct {
		OnSince, RunNS uint64
		TGID, Pad      uint32
		Comm           [16]byte
	}
)

// OffCPU follows, for d, every switch off and back onto a CPU (of one
// process's threads, or of every task) and returns the episodes aggregated
// per thread, stack, state and waker.
func OffCPU(ctx context.Context, d time.Duration, o OffCPUOptions, progress Progress) (OffCPUResult, error) {
	spec, err := loadOffcpu()
	var objs offcpuObjects
	if err := load("off-CPU", spec, err, map[string]any{"targ_tgid": o.TGID}, &objs); err != nil {
		return OffCPUResult{}, err
	}
	defer objs.Close()
	start := monotonic()
	if err := objs.Window.Put(uint32(0), start); err != nil {
		return OffCPUResult{}, fmt.Errorf("setting the window's start: %w", err)
	}
	// The exits before the entries: an interrupt entered while only its
	// entry is attached would count as never left.
	err = trace(ctx, d, progress, nil, nil,
		btfTracepoint("irq_handler_exit", objs.OnIrqExit),
		btfTracepoint("softirq_exit", objs.OnSoftirqExit),
		btfTracepoint("hrtimer_expire_exit", objs.OnTimerExit),
		btfTracepoint("irq_handler_entry", objs.OnIrqEntry),
		btfTracepoint("softirq_entry", objs.OnSoftirqEntry),
		btfTracepoint("hrtimer_expire_entry", objs.OnTimerEntry),
		btfTracepoint("sched_waking", objs.OnWaking),
		btfTracepoint("sched_switch", objs.OnSwitch))
	if err != nil {
		return OffCPUResult{}, err
	}
	end := monotonic() // after detaching: every start recorded is before it
	res := OffCPUResult{Window: time.Duration(end - start), Threads: map[uint32]OffCPUThread{}}
	if res.Waits, err = readWaits(&objs); err != nil {
		return res, err
	}
	var tid uint32
	var st offStart
	it := objs.Offcpu.Iterate()
	for it.Next(&tid, &st) {
		if st.TS < end {
			res.Waiting = append(res.Waiting, OffCPUWaiting{TID: tid, TGID: st.TGID, State: st.State, WaitNS: end - st.TS})
		}
	}
	if err := it.Err(); err != nil {
		return res, fmt.Errorf("reading the threads off the CPU: %w", err)
	}
	var th offThread
	it = objs.Threads.Iterate()
	for it.Next(&tid, &th) {
		res.Threads[tid] = OffCPUThread{TGID: th.TGID, Comm: cstring(th.Comm[:]), RunNS: th.RunNS}
	}
	if err := it.Err(); err != nil {
		return res, fmt.Errorf("reading the threads: %w", err)
	}
	res.Lost = OffCPULost{Waits: counter(objs.Lost, 0), Stacks: counter(objs.Lost, 1), Threads: counter(objs.Lost, 2), Unmatched: counter(objs.Lost, 3)}
	return res, nil
}

// readWaits reads the aggregates, each with its stack.
func readWaits(objs *offcpuObjects) ([]OffCPUWait, error) {
	var out []OffCPUWait
	stacks := map[uint64][]uint64{}
	var k offWaitKey
	var v offWaitVal
	it := objs.Waits.Iterate()
	for it.Next(&k, &v) {
		w := OffCPUWait{TID: k.TID, TGID: k.TGID, State: k.State, BeganBefore: k.Before != 0, Count: v.Count, TotalNS: v.TotalNS, MaxNS: v.MaxNS}
		if k.Stack != 0 {
			st, ok := stacks[k.Stack]
			if !ok {
				var ips [offCPUStackDepth]uint64
				if objs.Stacks.Lookup(k.Stack, &ips) == nil {
					st = trimZeros(ips[:])
				}
				stacks[k.Stack] = st
			}
			w.Stack = st
		}
		w.Waker = waker(k, v)
		out = append(out, w)
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("reading the off-CPU waits: %w", err)
	}
	return out, nil
}

// waker decodes an aggregate's waker.
func waker(k offWaitKey, v offWaitVal) *Waker {
	switch c := k.WakerCtx; {
	case c == wakerNone:
		return nil
	case c == wakerTask:
		return &Waker{Context: "task", TID: k.WakerTID, TGID: k.WakerTGID, Comm: cstring(v.WakerComm[:])}
	case c == wakerHardirq:
		return &Waker{Context: "hardirq"}
	case c == wakerTimer:
		return &Waker{Context: "timer"}
	case int(c-wakerSoftirq) < len(softirqNames):
		return &Waker{Context: "softirq " + softirqNames[c-wakerSoftirq]}
	default:
		return &Waker{Context: fmt.Sprintf("softirq %d", c-wakerSoftirq)}
	}
}

// trimZeros cuts a stack at its first empty slot.
func trimZeros(ips []uint64) []uint64 {
	for i, ip := range ips {
		if ip == 0 {
			return ips[:i:i]
		}
	}
	return ips
}

// monotonic is CLOCK_MONOTONIC in nanoseconds, bpf_ktime_get_ns's clock.
func monotonic() uint64 {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	return uint64(ts.Nano())
}

// btfTracepoint attaches a tp_btf program to the tracepoint it names.
func btfTracepoint(name string, prog *ebpf.Program) attacher {
	return func() (link.Link, error) {
		l, err := link.AttachTracing(link.TracingOptions{Program: prog, AttachType: ebpf.AttachTraceRawTp})
		if err != nil {
			return nil, fmt.Errorf("attaching to BTF tracepoint %s: %w", name, err)
		}
		return l, nil
	}
}
