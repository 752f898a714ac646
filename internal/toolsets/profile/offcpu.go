package profile

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/hostmcp/hostmcp/internal/num"
	"github.com/hostmcp/hostmcp/internal/profile"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// waitTask is one task's time off CPU, by the reason it left the CPU.
type waitTask struct {
	Task      string             `json:"task"`
	TID       int                `json:"tid"`
	PID       int                `json:"pid"`
	OffCPUMS  float64            `json:"off_cpu_ms" jsonschema:"time between leaving the CPU and running again"`
	RunMS     float64            `json:"run_ms"`
	ByReason  map[string]float64 `json:"off_cpu_ms_by_reason" jsonschema:"sleeping (S: locks, timers, network, pipes), uninterruptible (D: disk I/O), preempted (runnable, waiting for a CPU), idle (a kernel thread with no work), stopped, other"`
	TopReason string             `json:"top_reason"`
}

type offCPUOut struct {
	DurationSeconds   float64            `json:"duration_seconds"`
	Tasks             []waitTask         `json:"tasks" jsonschema:"by off-CPU time, most first"`
	ByReason          map[string]float64 `json:"off_cpu_ms_by_reason"`
	OwnThreadsLeftOut int                `json:"own_threads_left_out" jsonschema:"threads of hostmcp and of the perf recording (which sleep through the window by design), left out"`
	Findings          []string           `json:"findings"`
}

func (s *Set) offCPU() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_offcpu_profile",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "Off-CPU time",
		Description: "Where tasks block: off-CPU time per process and thread with the reason (perf sched).",
		Timeout:     2 * time.Minute,
	}, s.handleOffCPU).WithRange("duration_seconds", 1, 30).WithRange("pid", 1, 1<<22).WithRange("top_n", 1, 100)
}

func (s *Set) handleOffCPU(ctx context.Context, call *tool.Call, in schedIn) (offCPUOut, error) {
	release, err := s.acquire()
	if err != nil {
		return offCPUOut{}, err
	}
	defer release()
	rec, err := s.recordSched(ctx, call, in, 30)
	if err != nil {
		return offCPUOut{}, err
	}
	defer rec.cleanup()
	raw, err := s.perfOutput(ctx, rec.dir, "sched", "timehist", "-i", "perf.data", "--state")
	if err != nil {
		return offCPUOut{}, err
	}
	rows := profile.ParseTimehist(raw)
	tasks := map[int]*waitTask{}
	last := map[int]string{} // how each thread last left the CPU
	total := map[string]float64{}
	m := newMeasurer(rec.perfPID)
	for _, r := range rows {
		m.saw(r.Task, r.TID)
	}
	for _, r := range rows {
		if in.PID != 0 && r.PID != in.PID || in.PID == 0 && m.owns(r.PID, r.TID) {
			continue
		}
		t := tasks[r.TID]
		if t == nil {
			t = &waitTask{Task: r.Task, TID: r.TID, PID: r.PID, ByReason: map[string]float64{}}
			tasks[r.TID] = t
		}
		t.RunMS += r.RunMS
		if r.WaitMS > 0 {
			why := profile.OffCPUReason(last[r.TID])
			t.ByReason[why] += r.WaitMS
			t.OffCPUMS += r.WaitMS
			total[why] += r.WaitMS
		}
		last[r.TID] = r.State
	}
	for why, ms := range total {
		total[why] = num.Round3(ms)
	}
	out := offCPUOut{DurationSeconds: rec.dur.Seconds(), ByReason: total, OwnThreadsLeftOut: len(m.left), Findings: []string{}}
	for _, t := range tasks {
		if t.OffCPUMS == 0 {
			continue
		}
		t.OffCPUMS, t.RunMS = num.Round3(t.OffCPUMS), num.Round3(t.RunMS)
		for why, ms := range t.ByReason {
			t.ByReason[why] = num.Round3(ms)
		}
		best := 0.0
		for why, ms := range t.ByReason {
			if ms > best || ms == best && why < t.TopReason {
				best, t.TopReason = ms, why
			}
		}
		out.Tasks = append(out.Tasks, *t)
	}
	slices.SortFunc(out.Tasks, func(a, b waitTask) int { return cmp.Or(cmp.Compare(b.OffCPUMS, a.OffCPUMS), cmp.Compare(a.TID, b.TID)) })
	out.Tasks = out.Tasks[:min(len(out.Tasks), cmp.Or(in.TopN, 20))]
	if out.Tasks == nil {
		out.Tasks = []waitTask{}
	}
	if ms := total["uninterruptible"]; ms > 100 {
		out.Findings = append(out.Findings, "tasks spent "+strconv.FormatFloat(ms, 'f', 0, 64)+" ms in uninterruptible sleep: disk or NFS I/O (see perf_io_latency)")
	}
	if ms := total["preempted"]; ms > 100 {
		out.Findings = append(out.Findings, "tasks waited "+strconv.FormatFloat(ms, 'f', 0, 64)+" ms runnable for a CPU: CPU contention (see perf_sched_latency)")
	}
	return out, nil
}
