package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/hostmcp/hostmcp/internal/app"
	"github.com/hostmcp/hostmcp/internal/cli"
	"github.com/hostmcp/hostmcp/internal/httpserve"
)

func serveCmd(p *cli.Parsed, s stdio) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	gcPercent := app.PauseCollection() // until the tools are registered: see ReturnStartupMemory
	a, ok := open(ctx, p, s)
	if !ok {
		return 1
	}
	defer a.Close()
	a.RunSweeper(ctx)
	a.ReturnStartupMemory(gcPercent)
	cfg := a.Config
	log := newLogger(s, cfg)
	var err error
	if cfg.HTTP.Addr == "" {
		log.Info("serving MCP on stdio", "version", buildInfo().Short(), "tools", len(a.Server.Tools()), "state", cfg.StateDir)
		err = a.Server.ServeStdio(ctx, s.in, s.out, cfg.Stdio.MaxMessageBytes)
	} else {
		token, terr := cfg.Token(os.Getenv)
		if terr != nil {
			fmt.Fprintf(s.err, "hostmcp: %v\n", terr)
			return 1
		}
		err = httpserve.Serve(ctx, a.Server.MCP(), &httpserve.Options{
			Addr:           cfg.HTTP.Addr,
			Token:          token,
			MaxBodyBytes:   cfg.HTTP.MaxBodyBytes,
			MaxHeaderBytes: cfg.HTTP.MaxHeaderBytes,
			Metrics:        a.Server.Metrics().Handler(),
			Budget:         a.Server.Admission().HTTP(),
			Logger:         log,
		})
	}
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(s.err, "hostmcp: %v\n", err)
		return 1
	}
	return 0
}
