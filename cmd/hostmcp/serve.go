package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/hostmcp/hostmcp/internal/httpserve"
)

func serveCmd(args []string, s stdio) int {
	c := newCommon("serve", s)
	httpAddr := c.fs.String("http", "", "serve streamable HTTP on ADDR (host:port) instead of stdio")
	tokenFile := c.fs.String("token-file", "", "file holding the HTTP bearer token (else env HOSTMCP_TOKEN)")
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	// Logs go to stderr: on stdio, stdout is the protocol.
	log := slog.New(slog.NewTextHandler(s.err, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if err := c.fs.Parse(args); err != nil {
		return 2
	}
	if c.fs.NArg() > 0 {
		fmt.Fprintf(s.err, "hostmcp serve: unexpected arguments %v\n", c.fs.Args())
		return 2
	}
	c.flags.HTTPAddr, c.flags.TokenFile = *httpAddr, *tokenFile
	a, ok := c.open(ctx, s, log)
	if !ok {
		return 1
	}
	defer a.Close()
	a.RunSweeper(ctx)
	cfg := a.Config
	var err error
	if cfg.HTTP.Addr == "" {
		log.Info("serving MCP on stdio", "tools", len(a.Server.Tools()), "state", cfg.StateDir)
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
