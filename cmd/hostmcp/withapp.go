package main

import (
	"context"
	"os/signal"
	"syscall"

	"github.com/hostmcp/hostmcp/internal/app"
	"github.com/hostmcp/hostmcp/internal/cli"
)

// withApp opens the app for a command that runs tools in-process (call,
// triage), runs do until SIGTERM or SIGINT cancels its context, and closes
// the app; it exits 1 when the app cannot be opened (open said why).
func withApp(p *cli.Parsed, s stdio, do func(ctx context.Context, a *app.App) int) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	a, ok := open(ctx, p, s)
	if !ok {
		return 1
	}
	defer a.Close()
	return do(ctx, a)
}
