package diagnose

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/procs"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// threadsIn is the input of perf_thread_profile (spec 000 section 9.16).
type threadsIn struct {
	PID             int   `json:"pid" jsonschema:"process to measure"`
	DurationSeconds int   `json:"duration_seconds,omitempty" default:"5"`
	IncludeOffCPU   *bool `json:"include_offcpu,omitempty" jsonschema:"split time into running, CPU wait and off CPU"`
	MaxThreads      int   `json:"max_threads,omitempty" jsonschema:"busiest listed" default:"50"`
}

// threadCPU is one thread over the interval.
type threadCPU struct {
	TID        int     `json:"tid"`
	Name       string  `json:"name"`
	State      string  `json:"state" jsonschema:"at the end: R running, S sleeping, D uninterruptible (I/O), ..."`
	CPUPercent float64 `json:"cpu_percent" jsonschema:"of one CPU over the interval"`
	UserPct    float64 `json:"user_percent"`
	SystemPct  float64 `json:"system_percent"`
	LastCPU    int     `json:"last_cpu" jsonschema:"CPU it last ran on"`
	// With include_offcpu, for threads that lived through the interval.
	RunqWaitPct *float64 `json:"runq_wait_percent,omitempty" jsonschema:"include_offcpu: of the interval, runnable but waiting for a CPU"`
	OffCPUPct   *float64 `json:"off_cpu_percent,omitempty" jsonschema:"include_offcpu: of the interval, neither running nor runnable: sleeping or blocked"`
}

type threadsOut struct {
	PID             int            `json:"pid"`
	Mode            string         `json:"mode" jsonschema:"basic: per-thread CPU from /proc/<pid>/task (with include_offcpu, also their schedstat)"`
	DurationSeconds float64        `json:"duration_seconds"`
	ThreadsTotal    int            `json:"threads_total"`
	TotalCPUPercent float64        `json:"total_cpu_percent" jsonschema:"the whole process, in percent of one CPU"`
	Threads         []threadCPU    `json:"threads" jsonschema:"busiest first"`
	States          map[string]int `json:"states" jsonschema:"threads per state at the end"`
	Findings        []string       `json:"findings"`
}

func (s *Set) threadProfile() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_thread_profile",
		Kind:        tool.ReadOnly,
		Title:       "Per-thread CPU",
		Description: "CPU of each thread of a process: user and system time, states, CPU wait, findings such as a hot thread.",
		Timeout:     45 * time.Second,
	}, s.handleThreads).WithRange("pid", 1, 1<<22).WithRange("duration_seconds", 1, 30).WithRange("max_threads", 1, 1000)
}

func (s *Set) handleThreads(ctx context.Context, call *tool.Call, in threadsIn) (threadsOut, error) {
	dur := time.Duration(cmp.Or(in.DurationSeconds, 5)) * time.Second
	before, err := s.threads(in.PID, offCPU(in))
	if err != nil {
		return threadsOut{}, err
	}
	start := time.Now()
	if err := call.Wait(ctx, dur, "sampling threads"); err != nil {
		return threadsOut{}, err
	}
	after, err := s.threads(in.PID, offCPU(in))
	if err != nil {
		return threadsOut{}, err
	}
	span := time.Since(start).Seconds()
	out := buildThreads(in, before, after, span)
	if offCPU(in) && !hasSchedstat(after) {
		call.Warn("this kernel keeps no schedstat (CONFIG_SCHED_INFO), so there is no off-CPU split; perf_offcpu_profile {pid: %d} measures it with perf", in.PID)
	}
	return out, nil
}

func offCPU(in threadsIn) bool { return in.IncludeOffCPU != nil && *in.IncludeOffCPU }

func hasSchedstat(threads map[int]hostinfo.ThreadTimes) bool {
	for _, t := range threads {
		if t.Schedstat {
			return true
		}
	}
	return false
}

func (s *Set) threads(pid int, schedstat bool) (map[int]hostinfo.ThreadTimes, error) {
	list, err := s.deps.Host.ReadThreads(pid, schedstat)
	if errors.Is(err, hostinfo.ErrPIDNotFound) {
		return nil, tool.Errorf(tool.PIDNotFound, "no process with pid %d", pid).
			WithSuggestion("Find the process with proc_list (name: ...) and use its pid.")
	}
	if err != nil {
		return nil, tool.Wrap(tool.ExecutionFailed, err, "reading the threads of %d: %v", pid, err)
	}
	m := make(map[int]hostinfo.ThreadTimes, len(list))
	for _, t := range list {
		m[t.TID] = t
	}
	return m, nil
}

// buildThreads turns two readings into the answer. Threads born during the
// interval count from zero; threads that ended are gone from the second
// reading, and their time with them (said in a finding when it matters).
func buildThreads(in threadsIn, before, after map[int]hostinfo.ThreadTimes, span float64) threadsOut {
	out := threadsOut{PID: in.PID, Mode: "basic", DurationSeconds: figures.Round2(span), ThreadsTotal: len(after), States: map[string]int{}, Findings: []string{}}
	pct := func(ticks uint64) float64 { return float64(ticks) / procs.ClockTicks / span * 100 }
	for tid, a := range after {
		b := before[tid] // zero for a thread born meanwhile
		if a.UTime < b.UTime || a.STime < b.STime {
			b = hostinfo.ThreadTimes{} // a reused tid: a new thread
		}
		u, sy := pct(a.UTime-b.UTime), pct(a.STime-b.STime)
		t := threadCPU{TID: tid, Name: a.Comm, State: a.State, CPUPercent: figures.Round1(u + sy), UserPct: figures.Round1(u), SystemPct: figures.Round1(sy), LastCPU: a.Processor}
		if a.Schedstat && b.Schedstat && a.OnCPUNS >= b.OnCPUNS && a.RunqNS >= b.RunqNS {
			// Whatever the interval held besides running and waiting to run
			// was spent off CPU.
			spanNS := span * 1e9
			on, runq := float64(a.OnCPUNS-b.OnCPUNS)/spanNS*100, float64(a.RunqNS-b.RunqNS)/spanNS*100
			runq, off := figures.Round1(runq), figures.Round1(max(0, 100-on-runq))
			t.RunqWaitPct, t.OffCPUPct = &runq, &off
		}
		out.Threads = append(out.Threads, t)
		out.TotalCPUPercent += u + sy
		out.States[a.State]++
	}
	out.TotalCPUPercent = figures.Round1(out.TotalCPUPercent)
	slices.SortFunc(out.Threads, func(x, y threadCPU) int {
		return cmp.Or(cmp.Compare(y.CPUPercent, x.CPUPercent), cmp.Compare(x.TID, y.TID))
	})
	if n := cmp.Or(in.MaxThreads, 50); len(out.Threads) > n {
		out.Threads = out.Threads[:n]
	}
	out.Findings = threadFindings(out, len(before))
	return out
}

func threadFindings(out threadsOut, threadsBefore int) []string {
	f := []string{}
	if len(out.Threads) > 0 && out.Threads[0].CPUPercent >= 90 {
		t := out.Threads[0]
		f = append(f, fmt.Sprintf("thread %s (%d) used %.0f%% of a CPU: a single hot thread is capped at one core whatever the core count", t.Name, t.TID, t.CPUPercent))
	}
	if out.TotalCPUPercent >= 10 && len(out.Threads) > 0 {
		var sys float64
		for _, t := range out.Threads {
			sys += t.SystemPct
		}
		if sys/out.TotalCPUPercent >= 0.5 {
			f = append(f, fmt.Sprintf("%.0f%% of the process's CPU time is in the kernel: look at its syscalls or I/O", sys/out.TotalCPUPercent*100))
		}
	}
	for _, t := range out.Threads {
		if t.RunqWaitPct != nil && *t.RunqWaitPct >= 10 {
			f = append(f, fmt.Sprintf("thread %s (%d) waited for a CPU %.0f%% of the interval: the CPUs are contended (perf_runq_latency shows by whom)", t.Name, t.TID, *t.RunqWaitPct))
			break // the busiest such thread says it
		}
	}
	if t := out.Threads; len(t) > 0 && t[0].OffCPUPct != nil && out.TotalCPUPercent < 5 {
		f = append(f, fmt.Sprintf("the process was off CPU nearly all the time (busiest thread %.0f%% off CPU): it is waiting, not computing; perf_offcpu_profile {pid: %d} shows on what", *t[0].OffCPUPct, out.PID))
	}
	if d := out.States["D"]; d > 0 {
		f = append(f, fmt.Sprintf("%d thread(s) in uninterruptible sleep (D): usually waiting on disk or NFS I/O", d))
	}
	if threadsBefore > 0 && out.ThreadsTotal > threadsBefore*2 && out.ThreadsTotal-threadsBefore > 10 {
		f = append(f, fmt.Sprintf("thread count grew from %d to %d during the interval", threadsBefore, out.ThreadsTotal))
	}
	return f
}
