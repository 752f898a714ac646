package diagnose

import (
	"context"
	"errors"
	"time"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// cgroupIn is the input of perf_cgroup_summary (spec 000 section 9.8).
type cgroupIn struct {
	PID        int    `json:"pid,omitempty" jsonschema:"the cgroup of this process"`
	CgroupPath string `json:"cgroup_path,omitempty" jsonschema:"e.g. /system.slice/x.service"`
	IntervalMS int    `json:"interval_ms,omitempty" default:"1000"`
}

func (s *Set) cgroupSummary() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_cgroup_summary",
		Kind:        tool.ReadOnly,
		Title:       "Cgroup resource summary",
		Description: "One cgroup's CPU, quota and throttling, memory and OOMs, PSI, I/O and tasks, with suspicions.",
		Timeout:     15 * time.Second,
	}, s.handleCgroup).WithRange("interval_ms", minIntervalMS, maxIntervalMS).WithRange("pid", 1, 1<<22).
		WithExactlyOne("pid", "cgroup_path")
}

func (s *Set) handleCgroup(ctx context.Context, call *tool.Call, in cgroupIn) (health.CgroupCheck, error) {
	var dirs hostinfo.CgroupDirs
	var err error
	if in.PID != 0 { // the framework let exactly one of pid and cgroup_path through
		dirs, err = s.deps.Host.CgroupOfPID(in.PID)
	} else {
		dirs, err = s.deps.Host.CgroupByPath(in.CgroupPath)
	}
	switch {
	case errors.Is(err, hostinfo.ErrPIDNotFound):
		return health.CgroupCheck{}, tool.Errorf(tool.PIDNotFound, "no process with pid %d", in.PID)
	case errors.Is(err, hostinfo.ErrCgroupNotFound):
		return health.CgroupCheck{}, tool.Errorf(tool.CgroupNotFound, "%s", tool.Clip(err.Error())) // it quotes cgroup_path
	case err != nil:
		return health.CgroupCheck{}, tool.Wrap(tool.ExecutionFailed, err, "finding the cgroup: %v", err)
	}
	d := interval(in.IntervalMS)
	before := s.deps.Host.SampleCgroup(dirs)
	if err := call.Wait(ctx, d, "sampling cgroup counters"); err != nil {
		return health.CgroupCheck{}, err
	}
	after := s.deps.Host.SampleCgroup(dirs)
	sum, warns := s.deps.Host.BuildCgroupSummary(dirs, before, after)
	for _, w := range warns {
		call.Warn("%s", w)
	}
	return health.CgroupCheck{CgroupSummary: sum, Summary: health.AnalyzeCgroup(&sum)}, nil
}
