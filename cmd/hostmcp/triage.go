package main

import (
	"context"
	"fmt"
	"os/signal"
	"syscall"

	"github.com/hostmcp/hostmcp/internal/triage"
)

// triageCmd prints a short health report of this machine, verdict first.
func triageCmd(args []string, s stdio) int {
	c := newCommon("triage", s)
	if err := c.fs.Parse(args); err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	a, ok := c.open(ctx, s, quietLogger(s))
	if !ok {
		return 1
	}
	defer a.Close()
	rep := triage.Collect(ctx, a.Server)
	if err := rep.Write(s.out); err != nil {
		fmt.Fprintf(s.err, "hostmcp: %v\n", err)
		return 1
	}
	if len(rep.Problems) > 0 {
		return 1
	}
	return 0
}
