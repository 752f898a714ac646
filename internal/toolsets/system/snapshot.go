package system

import (
	"context"
	"time"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type snapshotIn struct{}

func (s *Set) snapshot() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "sys_snapshot",
		Kind:        tool.ReadOnly,
		Title:       "System health snapshot",
		Description: "Quick check: CPU, load, memory, swap and disk use; perf_snapshot gives rates, perf_use_check verdicts.",
		Timeout:     5 * time.Second,
	}, s.handleSnapshot)
}

func (s *Set) handleSnapshot(ctx context.Context, call *tool.Call, _ snapshotIn) (hostinfo.Snapshot, error) {
	snap, err := s.deps.Host.Snapshot(ctx, nil)
	if err != nil {
		return hostinfo.Snapshot{}, tool.Wrap(tool.ExecutionFailed, err, "taking the snapshot: %v", err)
	}
	for _, w := range snap.Warnings {
		call.Warn("%s", w)
	}
	snap.Warnings = nil
	return snap, nil
}
