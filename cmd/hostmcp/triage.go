package main

import (
	"context"
	"fmt"

	"github.com/hostmcp/hostmcp/internal/app"
	"github.com/hostmcp/hostmcp/internal/cli"
	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/store"
)

// triageBaseline picks the baseline triage compares with: the one named
// "default", else the newest; with none kept, the report says how to
// save one.
func triageBaseline(ctx context.Context, st *store.Store) *health.CollectOptions {
	kept, err := st.Baselines(ctx)
	if err != nil {
		return &health.CollectOptions{NoBaseline: "baselines unreadable: " + err.Error()}
	}
	if len(kept) == 0 {
		return &health.CollectOptions{NoBaseline: "none kept, so nothing tells what changed; save one with " + health.SaveBaselineHint}
	}
	for _, b := range kept {
		if b.Name == "default" {
			return &health.CollectOptions{CompareTo: b.Name}
		}
	}
	return &health.CollectOptions{CompareTo: kept[0].Name} // newest first
}

// triageCmd prints a short health report of this machine, verdict first,
// then what changed since a baseline when one is kept;
// it exits 1 when perf_info or perf_snapshot failed.
func triageCmd(p *cli.Parsed, s stdio) int {
	return withApp(p, s, func(ctx context.Context, a *app.App) int {
		rep := health.CollectWith(ctx, a.Server, "hostmcp triage", triageBaseline(ctx, a.Store)) // the system_health flow's report
		if err := rep.WriteText(s.out); err != nil {
			fmt.Fprintf(s.err, "hostmcp: %v\n", err)
			return 1
		}
		if len(rep.Problems) > 0 {
			return 1
		}
		return 0
	})
}
