package diagnose

import (
	"context"
	"time"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// useIn is the input of perf_use_check (spec 000 section 9.3).
type useIn struct {
	IntervalMS int `json:"interval_ms,omitempty" default:"1000"`
	baselineArgs
}

// useOut is perf_use_check's data: the verdict and, when asked, the
// baseline saved or compared with.
type useOut struct {
	health.UseCheck
	Baseline *health.BaselineResult `json:"baseline,omitempty"`
}

func (s *Set) useCheck() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_use_check",
		Kind:        tool.ReadOnly,
		Title:       "USE method check",
		Description: "USE method verdict: CPU, memory, disks, network, file systems.",
		Timeout:     15 * time.Second,
	}, s.handleUseCheck).WithRange("interval_ms", minIntervalMS, maxIntervalMS)
}

func (s *Set) handleUseCheck(ctx context.Context, call *tool.Call, in useIn) (useOut, error) {
	job, err := s.startBaseline(ctx, in.baselineArgs)
	if err != nil {
		return useOut{}, err
	}
	snap, err := s.snapshot(ctx, call, interval(in.IntervalMS), false)
	if err != nil {
		return useOut{}, err
	}
	base, err := s.finish(ctx, call, job, snap)
	if err != nil {
		return useOut{}, err
	}
	return useOut{UseCheck: health.AnalyzeUSE(snap), Baseline: base}, nil
}
