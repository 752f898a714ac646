package profile

import (
	"context"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/stacks"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// offCPUPerf measures off-CPU time with `perf sched record` where eBPF
// cannot run: per thread, by the state it left the CPU in (sleeping,
// uninterruptible, preempted), but not what it waited on.
func (s *Set) offCPUPerf(ctx context.Context, call *tool.Call, in schedIn) (offCPUOut, error) {
	rec, err := s.recordSched(ctx, call, in, 30)
	if err != nil {
		return offCPUOut{}, err
	}
	defer rec.cleanup()
	raw, err := s.perfOutput(ctx, rec.dir, "sched", "timehist", "-i", "perf.data", "--state")
	if err != nil {
		return offCPUOut{}, err
	}
	rows := stacks.ParseTimehist(raw)
	tasks := map[int]*waitTask{}
	last := map[int]string{} // how each thread last left the CPU
	total := map[string]float64{}
	m := newMeasurer(s.deps.Host, rec.perfPID)
	for _, r := range rows {
		m.saw(r.Task, r.TID)
	}
	for _, r := range rows {
		if in.PID != 0 && r.PID != in.PID || in.PID == 0 && m.owns(r.PID, r.TID) {
			continue
		}
		t := tasks[r.TID]
		if t == nil {
			t = &waitTask{Task: r.Task, TID: r.TID, PID: r.PID, ByState: map[string]float64{}}
			tasks[r.TID] = t
		}
		t.RunMS += r.RunMS
		if r.WaitMS > 0 {
			why := stacks.OffCPUReason(last[r.TID])
			t.ByState[why] += r.WaitMS
			t.OffCPUMS += r.WaitMS
			total[why] += r.WaitMS
		}
		last[r.TID] = r.State
	}
	for why, ms := range total {
		total[why] = figures.Round3(ms)
	}
	out := offCPUOut{Mechanism: mechanismPerf, DurationSeconds: rec.dur.Seconds(), ByState: total, OwnThreadsLeftOut: len(m.left), Tasks: []waitTask{}}
	for _, t := range tasks {
		if t.OffCPUMS == 0 {
			continue
		}
		t.OffCPUMS, t.RunMS = figures.Round3(t.OffCPUMS), figures.Round3(t.RunMS)
		best := 0.0
		for why, ms := range t.ByState {
			t.ByState[why] = figures.Round3(ms)
			if ms > best || ms == best && why < t.TopReason {
				best, t.TopReason = ms, why
			}
		}
		out.Tasks = append(out.Tasks, *t)
	}
	return out, nil
}
