package main

import (
	"context"
	"fmt"
	"os/signal"
	"syscall"

	"github.com/hostmcp/hostmcp/internal/cli"
	"github.com/hostmcp/hostmcp/internal/health"
)

// triageCmd prints a short health report of this machine, verdict first;
// it exits 1 when perf_info or perf_snapshot failed.
func triageCmd(p *cli.Parsed, s stdio) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	a, ok := open(ctx, p, s)
	if !ok {
		return 1
	}
	defer a.Close()
	rep := health.Collect(ctx, a.Server, "hostmcp triage") // the system_health flow's report
	if err := rep.WriteText(s.out); err != nil {
		fmt.Fprintf(s.err, "hostmcp: %v\n", err)
		return 1
	}
	if len(rep.Problems) > 0 {
		return 1
	}
	return 0
}
