package diagnose

import (
	"context"
	"time"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Interval bounds shared by the sampling tools (milliseconds).
const (
	defaultIntervalMS = 1000
	minIntervalMS     = 100
	maxIntervalMS     = 10000
	// runQueueStep is how often the run queue is read during an interval: a
	// single reading of procs_running is an instant, too noisy to judge.
	runQueueStep = 100 * time.Millisecond
)

// interval turns an optional interval_ms into a duration.
func interval(ms int) time.Duration {
	if ms == 0 {
		ms = defaultIntervalMS
	}
	return time.Duration(ms) * time.Millisecond
}

// sampled is two readings of the host's counters and what was seen between.
type sampled struct {
	before, after hostinfo.Counters
	gauges        hostinfo.Gauges
	runQueue      []hostinfo.RunQueueSample
}

// sample reads the counters, waits d (reading the run queue and reporting
// progress on the way, stopping at once if ctx ends), then reads them again
// with the gauges. Warnings of the second reading go to the call.
func (s *Set) sample(ctx context.Context, call *tool.Call, d time.Duration, opts *hostinfo.CounterOptions) (sampled, error) {
	var out sampled
	var err error
	if out.before, _, err = s.deps.Host.ReadCounters(opts); err != nil {
		return sampled{}, tool.Wrap(tool.ExecutionFailed, err, "reading counters: %v", err)
	}
	progress := call.Elapsed(ctx, d, "sampling counters")
	err = tool.Wait(ctx, d, runQueueStep, func(elapsed time.Duration) {
		if run, blocked, err := s.deps.Host.RunQueue(); err == nil {
			out.runQueue = append(out.runQueue, hostinfo.RunQueueSample{Running: run, Blocked: blocked})
		}
		progress(elapsed)
	})
	if err != nil {
		return sampled{}, err
	}
	var warns []string
	if out.after, warns, err = s.deps.Host.ReadCounters(opts); err != nil {
		return sampled{}, tool.Wrap(tool.ExecutionFailed, err, "reading counters: %v", err)
	}
	g, gw, err := s.deps.Host.ReadGauges(opts)
	if err != nil {
		return sampled{}, tool.Wrap(tool.ExecutionFailed, err, "reading memory and load: %v", err)
	}
	out.gauges = g
	for _, w := range append(warns, gw...) {
		call.Warn("%s", w)
	}
	return out, nil
}

// snapshot samples the host and builds perf_snapshot's data: with every
// cgroup that has a limit, the processes those limits hold back, and the
// OOM kills of the interval as the kernel logged them.
func (s *Set) snapshot(ctx context.Context, call *tool.Call, d time.Duration, perCPU bool) (hostinfo.PerfSnapshot, error) {
	sm, err := s.sample(ctx, call, d, &hostinfo.CounterOptions{Limits: true})
	if err != nil {
		return hostinfo.PerfSnapshot{}, err
	}
	fss, warns := s.deps.Host.Filesystems(ctx, health.ThreshFSUsed.Warn)
	for _, w := range warns {
		call.Warn("%s", w)
	}
	sm.gauges.Filesystems = fss
	snap := hostinfo.BuildPerfSnapshot(hostinfo.SnapshotInput{
		Before: sm.before, After: sm.after, Gauges: sm.gauges, RunQueue: sm.runQueue, PerCPU: perCPU,
	})
	s.deps.Host.NameLimitedProcesses(snap.Cgroups)
	if snap.Memory.OOMKills > 0 {
		victims, err := s.deps.Host.LoggedOOMKills(sm.before, sm.after)
		if err != nil {
			call.Warn("the OOM kills' victims are unknown: %v", err)
		}
		snap.Memory.OOMVictims = victims
	}
	return snap, nil
}
