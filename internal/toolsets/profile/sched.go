package profile

import (
	"cmp"
	"context"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/stacks"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/view"
)

type schedIn struct {
	DurationSeconds int `json:"duration_seconds,omitempty" default:"5"`
	PID             int `json:"pid,omitempty" jsonschema:"only this pid"`
	TopN            int `json:"top_n,omitempty" default:"20"`
}

// schedRecording is a finished `perf sched record`: the work directory
// holding perf.data (removed by cleanup), how long it ran, and perf's pid.
type schedRecording struct {
	dir     string
	dur     time.Duration
	perfPID int
	cleanup func()
}

// recordSched runs `perf sched record` for the duration.
func (s *Set) recordSched(ctx context.Context, call *tool.Call, in schedIn, max int) (schedRecording, error) {
	rec := schedRecording{dur: time.Duration(cmp.Or(in.DurationSeconds, 5)) * time.Second}
	if in.DurationSeconds > max {
		return rec, tool.Errorf(tool.InvalidDuration, "duration_seconds %d: at most %d", in.DurationSeconds, max)
	}
	if in.PID != 0 {
		if !s.deps.Host.ProcessExists(in.PID) {
			return rec, tool.Errorf(tool.PIDNotFound, "no process with pid %d", in.PID)
		}
	}
	if err := s.needPerf(); err != nil {
		return rec, err
	}
	dir, cleanup, err := s.workDir()
	if err != nil {
		return rec, err
	}
	args := append([]string{"sched", "record"}, recordFlags...)
	res, err := s.record(ctx, call, dir, rec.dur, "recording scheduler events", append(args, "-o", "perf.data")...)
	if err != nil {
		cleanup()
		return rec, err
	}
	rec.dir, rec.cleanup, rec.perfPID = dir, cleanup, res.PID
	return rec, nil
}

// measurer recognises the threads the measurement itself adds: hostmcp's
// own, perf's, and the window perf runs for the duration (named perf-exec
// until it becomes this binary). They sleep through the whole window by
// design and would head every system-wide off-CPU table.
type measurer struct {
	host       *hostinfo.Host
	self, perf int
	workload   map[int]bool // tids seen as perf-exec
	left       map[int]bool // tids left out
}

func newMeasurer(host *hostinfo.Host, perfPID int) *measurer {
	return &measurer{host: host, self: os.Getpid(), perf: perfPID, workload: map[int]bool{}, left: map[int]bool{}}
}

// saw notes a task name perf recorded for tid; call it for every row first.
func (m *measurer) saw(task string, tid int) {
	if task == "perf-exec" {
		m.workload[tid] = true
	}
}

// owns reports whether thread tid of process pid (0 when perf did not say)
// is one of the measurement's, and counts it if so.
func (m *measurer) owns(pid, tid int) bool {
	own := m.workload[tid] || tid == m.perf || pid == m.perf || pid == m.self || (pid == 0 && tid > 0 && m.host.ThreadOf(tid, m.self))
	if own {
		m.left[tid] = true
	}
	return own
}

type schedLatencyOut struct {
	DurationSeconds   float64              `json:"duration_seconds"`
	Tasks             []stacks.TaskLatency `json:"tasks" jsonschema:"by maximum scheduling delay, worst first"`
	TasksSeen         int                  `json:"tasks_seen"`
	OwnThreadsLeftOut int                  `json:"own_threads_left_out" jsonschema:"threads of hostmcp and of the perf recording, left out"`
	Findings          []string             `json:"findings"`
}

func (s *Set) schedLatency() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_sched_latency",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "Scheduler latency",
		Description: "Per task, from perf sched: run time, switches, mean and max wakeup-to-run delay.",
		Timeout:     2 * time.Minute,
		View:        view.URI,
	}, s.handleSchedLatency).WithRange("duration_seconds", 1, 30).WithRange("pid", 1, 1<<22).WithRange("top_n", 1, 100)
}

func (s *Set) handleSchedLatency(ctx context.Context, call *tool.Call, in schedIn) (schedLatencyOut, error) {
	release, err := s.acquire()
	if err != nil {
		return schedLatencyOut{}, err
	}
	defer release()
	rec, err := s.recordSched(ctx, call, in, 30)
	if err != nil {
		return schedLatencyOut{}, err
	}
	defer rec.cleanup()
	// -p: a row per thread, not per name, so each has a tid to act on.
	raw, err := s.perfOutput(ctx, rec.dir, "sched", "latency", "-p", "-i", "perf.data")
	if err != nil {
		return schedLatencyOut{}, err
	}
	tasks := stacks.ParseSchedLatency(raw)
	m := newMeasurer(s.deps.Host, rec.perfPID)
	for _, t := range tasks {
		m.saw(t.Task, t.TID)
	}
	tasks = slices.DeleteFunc(tasks, func(t stacks.TaskLatency) bool {
		if in.PID != 0 {
			return t.TID != in.PID && !s.deps.Host.ThreadOf(t.TID, in.PID)
		}
		return m.owns(0, t.TID)
	})
	for i := range tasks {
		if tasks[i].Task == "" { // perf knew no name: the thread may still be there
			tasks[i].Task = s.commOf(tasks[i].TID)
		}
	}
	slices.SortFunc(tasks, func(a, b stacks.TaskLatency) int {
		return cmp.Or(cmp.Compare(b.MaxDelayMS, a.MaxDelayMS), cmp.Compare(a.Task, b.Task))
	})
	out := schedLatencyOut{DurationSeconds: rec.dur.Seconds(), TasksSeen: len(tasks), OwnThreadsLeftOut: len(m.left), Findings: []string{}}
	out.Tasks = tasks[:min(len(tasks), cmp.Or(in.TopN, 20))]
	for _, t := range out.Tasks {
		if t.MaxDelayMS >= 10 {
			out.Findings = append(out.Findings, t.Task+" waited up to "+strconv.FormatFloat(t.MaxDelayMS, 'f', 1, 64)+" ms to run after waking: CPU contention (see perf_use_check's run queue)")
		}
	}
	return out, nil
}

// commOf names a thread perf recorded without a name, from /proc while it
// is still there.
func (s *Set) commOf(tid int) string {
	c, err := s.deps.Host.Comm(tid)
	if err != nil {
		return "[unknown]"
	}
	return c
}
