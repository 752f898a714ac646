package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/hostmcp/hostmcp/internal/app"
	"github.com/hostmcp/hostmcp/internal/cli"
	"github.com/hostmcp/hostmcp/internal/config"
)

// configFlags are the configuration settings a parsed command line gives:
// the common flags, and --http and --token-file where the command has them.
func configFlags(p *cli.Parsed) config.Flags {
	f := config.Flags{
		ConfigPath: p.String("config"),
		Roots:      p.Strings("root"),
		Toolsets:   p.String("toolsets"),
		StateDir:   p.String("state-dir"),
		TokenFile:  p.String("token-file"),
		LogLevel:   p.String("log-level"),
	}
	if p.Command.Name != "client-config" { // its --http is a URL, not an address
		f.HTTPAddr = p.String("http")
	}
	if p.IsSet("read-only") {
		ro := p.Bool("read-only")
		f.ReadOnly = &ro
	}
	return f
}

// loadConfig loads the configuration the parsed flags point to.
func loadConfig(p *cli.Parsed) (*config.Config, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("finding the working directory: %w", err)
	}
	return config.Load(configFlags(p), os.Getenv, cwd)
}

// open loads the configuration and opens the app, reporting errors on
// stderr. quiet keeps the log at warn unless --log-level says otherwise:
// commands other than serve print their own results on stdout.
func open(ctx context.Context, p *cli.Parsed, s stdio) (*app.App, bool) {
	cfg, err := loadConfig(p)
	if err != nil {
		fmt.Fprintf(s.err, "hostmcp: %v\n", err)
		return nil, false
	}
	a, err := app.Open(ctx, cfg, buildInfo().Short(), newLogger(s, cfg))
	if err != nil {
		fmt.Fprintf(s.err, "hostmcp: %v\n", err)
		return nil, false
	}
	a.MountTracefs()
	return a, true
}

// newLogger writes the server's log on stderr at the configured level: on
// stdio, stdout is the protocol.
func newLogger(s stdio, cfg *config.Config) *slog.Logger {
	return slog.New(slog.NewTextHandler(s.err, &slog.HandlerOptions{Level: cfg.SlogLevel()}))
}
