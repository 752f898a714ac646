package profile

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"time"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/stacks"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/view"
)

// How perf_offcpu_profile measured.
const (
	mechanismEBPF = "ebpf"
	mechanismPerf = "perf sched"
)

type offCPUOut struct {
	Mechanism         string             `json:"mechanism" jsonschema:"ebpf: what each thread waited on, with stacks and wakers; perf sched (where eBPF cannot run): only the state each left the CPU in"`
	DurationSeconds   float64            `json:"duration_seconds"`
	Tasks             []waitTask         `json:"tasks" jsonschema:"threads by off-CPU time, most first"`
	TasksTotal        int                `json:"tasks_total" jsonschema:"threads off the CPU in the window, listed or not"`
	TopReasons        []reasonTotal      `json:"top_reasons,omitempty" jsonschema:"wait reasons summed over every thread, listed or not, most time first, at most 10"`
	ByState           map[string]float64 `json:"off_cpu_ms_by_state"`
	AsleepWholeWindow int                `json:"threads_asleep_whole_window,omitempty" jsonschema:"system-wide: threads asleep (S or I) through the whole window, not listed (threads stuck in D through it are)"`
	OwnThreadsLeftOut int                `json:"own_threads_left_out" jsonschema:"threads of hostmcp and of its measurement (which sleep through the window by design), left out"`
	Findings          []string           `json:"findings"`
}

func (s *Set) offCPU() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_offcpu_profile",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "Off-CPU time",
		Description: "Where threads block and why: per thread, the kernel function each wait was in (pipe, futex, disk I/O...), total and max wait, stack and waker (eBPF; else perf sched).",
		Timeout:     2 * time.Minute,
		View:        view.URI,
	}, s.handleOffCPU).WithRange("duration_seconds", 1, 30).WithRange("pid", 1, 1<<22).WithRange("top_n", 1, 100)
}

func (s *Set) handleOffCPU(ctx context.Context, call *tool.Call, in schedIn) (offCPUOut, error) {
	if in.DurationSeconds > 30 {
		return offCPUOut{}, tool.Errorf(tool.InvalidDuration, "duration_seconds %d: at most 30", in.DurationSeconds)
	}
	if in.PID != 0 {
		tgid, err := s.processOf(in.PID)
		if err != nil {
			return offCPUOut{}, err
		}
		if tgid != in.PID {
			call.Warn("%d is a thread of process %d: following the whole process", in.PID, tgid)
			in.PID = tgid
		}
	}
	release, err := s.acquire()
	if err != nil {
		return offCPUOut{}, err
	}
	defer release()
	var out offCPUOut
	if why := bpfprog.Supported(); why == nil {
		out, err = s.offCPUeBPF(ctx, call, in)
	} else if s.needPerf() == nil {
		call.Warn("eBPF cannot run here (%v): without it, this answer has only the state each thread left the CPU in, from perf sched, not what it waited on", why)
		out, err = s.offCPUPerf(ctx, call, in)
	} else {
		return offCPUOut{}, tool.Errorf(tool.CapabilityMissing, "off-CPU profiling needs eBPF, which cannot run here (%v), or perf, which is not installed", why).
			WithSuggestion("perf_thread_profile {pid, include_offcpu: true} splits a process's time into running, waiting for a CPU and off CPU from /proc.")
	}
	if err != nil {
		return offCPUOut{}, err
	}
	return finishOffCPU(out, in), nil
}

// finishOffCPU ranks the threads, keeps the top_n and adds the findings.
func finishOffCPU(out offCPUOut, in schedIn) offCPUOut {
	slices.SortFunc(out.Tasks, func(a, b waitTask) int { return cmp.Or(cmp.Compare(b.OffCPUMS, a.OffCPUMS), cmp.Compare(a.TID, b.TID)) })
	out.TasksTotal = len(out.Tasks)
	out.Tasks = out.Tasks[:min(len(out.Tasks), cmp.Or(in.TopN, 20))]
	out.Findings = offCPUFindings(out, in.PID)
	return out
}

// processOf is the process thread or process id belongs to.
func (s *Set) processOf(id int) (int, error) {
	r, err := s.deps.Host.Processes(0)
	if err != nil {
		return 0, tool.Wrap(tool.CapabilityMissing, err, "procfs is not readable: %v", err)
	}
	p, err := r.Read(id, false)
	if err != nil {
		return 0, tool.Errorf(tool.PIDNotFound, "no process with pid %d", id)
	}
	return p.TGID, nil
}

// offCPUeBPF follows the window with eBPF, then names the stacks and asks
// /proc where the threads still waiting at its end wait.
func (s *Set) offCPUeBPF(ctx context.Context, call *tool.Call, in schedIn) (offCPUOut, error) {
	d := time.Duration(cmp.Or(in.DurationSeconds, 5)) * time.Second
	res, err := bpfprog.OffCPU(ctx, d, bpfprog.OffCPUOptions{TGID: uint32(in.PID)}, call.Elapsed(ctx, d, "following threads off and onto the CPUs"))
	if ctx.Err() != nil {
		return offCPUOut{}, ctx.Err()
	}
	if err != nil {
		return offCPUOut{}, tool.Wrap(tool.ExecutionFailed, err, "%v", err)
	}
	host := s.deps.Host
	win := offCPUWindow{res: res, self: os.Getpid(), frames: s.kernelFrames(call), now: map[uint32]hostinfo.ThreadWait{}}
	for _, w := range res.Waiting {
		if w.State != 0 {
			win.now[w.TID], _ = host.ReadThreadWait(int(w.TGID), int(w.TID))
		}
	}
	asleep, notListed := asleepThreads(host, in.PID, res)
	win.asleep = asleep
	t := buildOffCPU(win)
	if n := res.Lost.Waits; n > 0 {
		call.Warn("%d episodes were not counted: more than %d distinct thread, stack and waker rows; follow one pid", n, bpfprog.OffCPUMaxWaits)
	}
	if n := res.Lost.Stacks; n > 0 {
		call.Warn("%d episodes were counted without their kernel stack (reason [unknown])", n)
	}
	if n := res.Lost.Unmatched; n > 0 {
		call.Warn("%d switches onto a CPU came with no switch off reported since the thread's last one (the kernel's sched_switch left it out): those waits are not counted", n)
	}
	if n := res.Lost.Threads; n > 0 {
		call.Warn("%d switches were not followed: more than %d threads; follow one pid", n, bpfprog.OffCPUMaxThreads)
	}
	return offCPUOut{Mechanism: mechanismEBPF, DurationSeconds: res.Window.Round(time.Millisecond).Seconds(), Tasks: t.tasks,
		TopReasons: t.reasons, ByState: t.byState, AsleepWholeWindow: notListed, OwnThreadsLeftOut: t.ownLeft}, nil
}

// kernelFrames names kernel stacks from /proc/kallsyms; where it cannot be
// read, stacks go unnamed (reasons [unknown]) and a warning says why.
func (s *Set) kernelFrames(call *tool.Call) func([]uint64) []string {
	b, err := s.deps.Host.ReadKallsyms()
	var syms *stacks.Kallsyms
	if err == nil {
		syms, err = stacks.ParseKallsyms(b)
	}
	if err != nil {
		if errors.Is(err, stacks.ErrKernelAddressesHidden) {
			err = fmt.Errorf("%w: run hostmcp as root", err)
		}
		call.Warn("kernel stacks cannot be named (%v): wait reasons are [unknown] except for threads still waiting at the end", err)
		return func([]uint64) []string { return nil }
	}
	return syms.WaitFrames
}

// asleepThreads finds the threads off the CPU through the whole window,
// which switched neither out nor in: all of pid's, or, system-wide, those
// in uninterruptible sleep (stuck on I/O), the others only counted.
func asleepThreads(host *hostinfo.Host, pid int, res bpfprog.OffCPUResult) (listed []asleepThread, counted int) {
	seen := map[uint32]bool{}
	for tid := range res.Threads {
		seen[tid] = true
	}
	for _, w := range res.Waiting {
		seen[w.TID] = true
	}
	var procs []hostinfo.ProcessThreads
	if pid != 0 {
		if ts, err := host.ReadThreads(pid, false); err == nil {
			procs = []hostinfo.ProcessThreads{{PID: pid, Threads: ts}}
		}
	} else {
		procs, _ = host.ReadAllThreads()
	}
	for _, p := range procs {
		for _, t := range p.Threads {
			if seen[uint32(t.TID)] || t.State == "R" || t.State == "Z" || t.State == "X" {
				continue
			}
			if pid == 0 && t.State != "D" {
				counted++
				continue
			}
			w, err := host.ReadThreadWait(p.PID, t.TID)
			if err != nil {
				continue
			}
			listed = append(listed, asleepThread{pid: p.PID, tid: t.TID, wait: w})
		}
	}
	return listed, counted
}

// offCPUFindings says what the tables show: I/O and CPU contention from the
// states and, for one process, what its threads waited on longest.
func offCPUFindings(out offCPUOut, pid int) []string {
	f := []string{}
	if ms := out.ByState["uninterruptible"]; ms > 100 {
		s := fmt.Sprintf("tasks spent %.0f ms in uninterruptible sleep: disk or NFS I/O (see perf_io_latency)", ms)
		for _, r := range out.TopReasons {
			if r.State == "uninterruptible" {
				s += fmt.Sprintf("; most in %s (%.0f ms, %d threads)", r.Reason, r.TotalMS, r.Threads)
				break
			}
		}
		f = append(f, s)
	}
	if ms := out.ByState["preempted"]; ms > 100 {
		f = append(f, fmt.Sprintf("tasks waited %.0f ms runnable for a CPU: CPU contention (see perf_sched_latency)", ms))
	}
	if pid == 0 {
		return f
	}
	// One process: what its threads waited on, by reason, and who woke them.
	shown := 0
	for _, r := range out.TopReasons {
		if r.State == "preempted" {
			continue
		}
		if shown++; shown > 4 {
			break
		}
		f = append(f, describeReason(r, out))
	}
	return f
}

// describeReason says how a process's threads waited in one place, and
// who woke them most (over the threads listed).
func describeReason(r reasonTotal, out offCPUOut) string {
	s := fmt.Sprintf("%d threads waited in %s", r.Threads, r.Reason)
	if r.Kind != "" {
		s += " (" + r.Kind + ")"
	}
	s += fmt.Sprintf(": %d episodes, %.0f ms in all over the %.1f s window, longest %.0f ms", r.Episodes, r.TotalMS, out.DurationSeconds, r.MaxMS)
	wakers := map[string]int{}
	for _, t := range out.Tasks {
		for _, w := range t.Waits {
			if w.Reason != r.Reason || w.State != r.State {
				continue
			}
			for _, wk := range w.Wakers {
				name := wk.Comm
				if wk.PID != 0 {
					name = fmt.Sprintf("%s (pid %d)", wk.Comm, wk.PID)
				}
				wakers[name] += wk.Episodes
			}
		}
	}
	if len(wakers) > 0 {
		names := slices.SortedFunc(maps.Keys(wakers), func(a, b string) int { return cmp.Or(cmp.Compare(wakers[b], wakers[a]), cmp.Compare(a, b)) })
		s += fmt.Sprintf("; woken most by %s (%d episodes)", names[0], wakers[names[0]])
	}
	return s
}
