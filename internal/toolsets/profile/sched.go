package profile

import (
	"cmp"
	"context"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/hostmcp/hostmcp/internal/profile"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type schedIn struct {
	DurationSeconds int `json:"duration_seconds,omitempty" jsonschema:"how long to record scheduler events, 1 to 30 seconds; default 5"`
	PID             int `json:"pid,omitempty" jsonschema:"report only this process's threads; default every task"`
	TopN            int `json:"top_n,omitempty" jsonschema:"tasks listed, 1 to 100; default 20"`
}

// recordSched runs `perf sched record` for the duration and returns the
// work directory holding perf.data (removed by cleanup).
func (s *Set) recordSched(ctx context.Context, call *tool.Call, in schedIn, max int) (dir string, cleanup func(), dur time.Duration, err error) {
	dur = time.Duration(cmp.Or(in.DurationSeconds, 5)) * time.Second
	if in.DurationSeconds > max {
		return "", nil, 0, tool.Errorf(tool.InvalidDuration, "duration_seconds %d: at most %d", in.DurationSeconds, max)
	}
	if in.PID != 0 {
		if _, err := os.Stat("/proc/" + strconv.Itoa(in.PID)); err != nil {
			return "", nil, 0, tool.Errorf(tool.PIDNotFound, "no process with pid %d", in.PID)
		}
	}
	if err := s.needPerf(); err != nil {
		return "", nil, 0, err
	}
	dir, cleanup, err = workDir()
	if err != nil {
		return "", nil, 0, err
	}
	if _, err := s.runPerf(ctx, call, dir, dur, "recording scheduler events", "sched", "record", "--no-bpf-event", "-o", "perf.data", "--", "sleep", strconv.Itoa(int(dur/time.Second))); err != nil {
		cleanup()
		return "", nil, 0, err
	}
	return dir, cleanup, dur, nil
}

type schedLatencyOut struct {
	DurationSeconds float64               `json:"duration_seconds"`
	Tasks           []profile.TaskLatency `json:"tasks" jsonschema:"by maximum scheduling delay, worst first"`
	TasksSeen       int                   `json:"tasks_seen"`
	Findings        []string              `json:"findings"`
}

func (s *Set) schedLatency() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_sched_latency",
		Kind:        tool.ReadOnly,
		Title:       "Scheduler latency",
		Description: "Record scheduler events with perf sched and report, per task, run time, context switches and the average and maximum delay between wakeup and running.",
		Timeout:     2 * time.Minute,
	}, s.handleSchedLatency).WithRange("duration_seconds", 1, 30).WithRange("pid", 1, 1<<22).WithRange("top_n", 1, 100)
}

func (s *Set) handleSchedLatency(ctx context.Context, call *tool.Call, in schedIn) (schedLatencyOut, error) {
	release, err := s.acquire()
	if err != nil {
		return schedLatencyOut{}, err
	}
	defer release()
	dir, cleanup, dur, err := s.recordSched(ctx, call, in, 30)
	if err != nil {
		return schedLatencyOut{}, err
	}
	defer cleanup()
	raw, err := s.perfOutput(ctx, dir, "sched", "latency", "-i", "perf.data")
	if err != nil {
		return schedLatencyOut{}, err
	}
	tasks := profile.ParseSchedLatency(raw)
	if in.PID != 0 {
		tasks = slices.DeleteFunc(tasks, func(t profile.TaskLatency) bool { return t.PID != in.PID && !isThreadOf(t.PID, in.PID) })
	}
	slices.SortFunc(tasks, func(a, b profile.TaskLatency) int {
		return cmp.Or(cmp.Compare(b.MaxDelayMS, a.MaxDelayMS), cmp.Compare(a.Task, b.Task))
	})
	out := schedLatencyOut{DurationSeconds: dur.Seconds(), TasksSeen: len(tasks), Findings: []string{}}
	out.Tasks = tasks[:min(len(tasks), cmp.Or(in.TopN, 20))]
	for _, t := range out.Tasks {
		if t.MaxDelayMS >= 10 {
			out.Findings = append(out.Findings, t.Task+" waited up to "+strconv.FormatFloat(t.MaxDelayMS, 'f', 1, 64)+" ms to run after waking: CPU contention (see perf_use_check's run queue)")
		}
	}
	return out, nil
}

// isThreadOf reports whether tid is a thread of process pid.
func isThreadOf(tid, pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(tid))
	return err == nil
}

// waitTask is one task's time off CPU, by the reason it left the CPU.
type waitTask struct {
	Task      string             `json:"task"`
	TID       int                `json:"tid"`
	PID       int                `json:"pid"`
	OffCPUMS  float64            `json:"off_cpu_ms" jsonschema:"time between leaving the CPU and running again"`
	RunMS     float64            `json:"run_ms"`
	ByReason  map[string]float64 `json:"off_cpu_ms_by_reason" jsonschema:"sleeping (S: locks, timers, network), uninterruptible (D: disk I/O), preempted (R: runnable, waiting for a CPU), other"`
	TopReason string             `json:"top_reason"`
}

type offCPUOut struct {
	DurationSeconds float64            `json:"duration_seconds"`
	Tasks           []waitTask         `json:"tasks" jsonschema:"by off-CPU time, most first"`
	ByReason        map[string]float64 `json:"off_cpu_ms_by_reason"`
	Findings        []string           `json:"findings"`
}

// reasons names the task states perf sched timehist reports.
var reasons = map[string]string{"S": "sleeping", "D": "uninterruptible", "R": "preempted", "R+": "preempted"}

func (s *Set) offCPU() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_offcpu_profile",
		Kind:        tool.ReadOnly,
		Title:       "Off-CPU time",
		Description: "Record scheduler switches with perf sched and report blocked time by process and thread with the reasons it left the CPU (sleeping, uninterruptible I/O, preempted): what slow-but-idle work waits on.",
		Timeout:     2 * time.Minute,
	}, s.handleOffCPU).WithRange("duration_seconds", 1, 30).WithRange("pid", 1, 1<<22).WithRange("top_n", 1, 100)
}

func (s *Set) handleOffCPU(ctx context.Context, call *tool.Call, in schedIn) (offCPUOut, error) {
	release, err := s.acquire()
	if err != nil {
		return offCPUOut{}, err
	}
	defer release()
	dir, cleanup, dur, err := s.recordSched(ctx, call, in, 30)
	if err != nil {
		return offCPUOut{}, err
	}
	defer cleanup()
	raw, err := s.perfOutput(ctx, dir, "sched", "timehist", "-i", "perf.data", "--state")
	if err != nil {
		return offCPUOut{}, err
	}
	rows := profile.ParseTimehist(raw)
	tasks := map[int]*waitTask{}
	last := map[int]string{} // how each thread last left the CPU
	total := map[string]float64{}
	for _, r := range rows {
		if in.PID != 0 && r.PID != in.PID {
			continue
		}
		t := tasks[r.TID]
		if t == nil {
			t = &waitTask{Task: r.Task, TID: r.TID, PID: r.PID, ByReason: map[string]float64{}}
			tasks[r.TID] = t
		}
		t.RunMS += r.RunMS
		if r.WaitMS > 0 {
			why := cmp.Or(reasons[last[r.TID]], "other")
			t.ByReason[why] += r.WaitMS
			t.OffCPUMS += r.WaitMS
			total[why] += r.WaitMS
		}
		last[r.TID] = r.State
	}
	out := offCPUOut{DurationSeconds: dur.Seconds(), ByReason: total, Findings: []string{}}
	for _, t := range tasks {
		if t.OffCPUMS == 0 {
			continue
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
