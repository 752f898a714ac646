package perf

import (
	"context"
	"time"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// useIn is the input of perf_use_check (spec 000 section 9.3).
type useIn struct {
	IntervalMS int `json:"interval_ms,omitempty" default:"1000"`
}

func (s *Set) useCheck() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_use_check",
		Kind:        tool.ReadOnly,
		Title:       "USE method check",
		Description: "USE method verdict: utilisation, saturation and errors of CPU, memory, disks, network and file systems.",
		Timeout:     15 * time.Second,
	}, s.handleUseCheck).WithRange("interval_ms", minIntervalMS, maxIntervalMS)
}

func (s *Set) handleUseCheck(ctx context.Context, call *tool.Call, in useIn) (health.UseCheck, error) {
	snap, err := s.snapshot(ctx, call, interval(in.IntervalMS), false)
	if err != nil {
		return health.UseCheck{}, err
	}
	return health.AnalyzeUSE(snap), nil
}
