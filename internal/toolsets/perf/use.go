package perf

import (
	"context"
	"time"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// useIn is the input of perf_use_check (spec 000 section 9.3).
type useIn struct {
	IntervalMS int `json:"interval_ms,omitempty" jsonschema:"sampling interval in milliseconds, 100 to 10000; default 1000"`
}

func (s *Set) useCheck() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_use_check",
		Kind:        tool.ReadOnly,
		Title:       "USE method check",
		Description: "Utilisation, saturation and errors of CPU, memory, disk, network (PSI stall) and file system capacity measured over interval_ms and judged against fixed thresholds: healthy, warning or critical, and the suspicions worst first, naming the cgroup whose own quota or limit caused them.",
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
