package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/hostmcp/hostmcp/internal/app"
	"github.com/hostmcp/hostmcp/internal/config"
)

// rootList collects repeated --root flags.
type rootList []string

func (r *rootList) String() string     { return strings.Join(*r, ",") }
func (r *rootList) Set(v string) error { *r = append(*r, v); return nil }

// common are the flags every command that opens the server takes.
type common struct {
	fs       *flag.FlagSet
	flags    config.Flags
	roots    rootList
	readOnly bool
}

func newCommon(name string, s stdio) *common {
	c := &common{fs: flag.NewFlagSet(name, flag.ContinueOnError)}
	c.fs.SetOutput(s.err)
	c.fs.StringVar(&c.flags.ConfigPath, "config", "", "TOML configuration file")
	c.fs.Var(&c.roots, "root", "allowed root DIR or DIR:ro (repeatable)")
	c.fs.StringVar(&c.flags.Toolsets, "toolsets", "", "comma-separated toolsets to serve")
	c.fs.BoolVar(&c.readOnly, "read-only", false, "serve only read-only tools")
	c.fs.StringVar(&c.flags.StateDir, "state-dir", "", "directory of the state database")
	return c
}

// load loads the configuration the parsed flags point to.
func (c *common) load() (*config.Config, error) {
	c.flags.Roots = c.roots
	c.fs.Visit(func(f *flag.Flag) {
		if f.Name == "read-only" {
			c.flags.ReadOnly = &c.readOnly
		}
	})
	cwd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("finding the working directory: %w", err)
	}
	return config.Load(c.flags, os.Getenv, cwd)
}

// open loads the configuration and opens the app, reporting errors on
// stderr. The flags must have been parsed.
func (c *common) open(ctx context.Context, s stdio, log *slog.Logger) (*app.App, bool) {
	cfg, err := c.load()
	if err != nil {
		fmt.Fprintf(s.err, "hostmcp: %v\n", err)
		return nil, false
	}
	a, err := app.Open(ctx, cfg, versionString(), log)
	if err != nil {
		fmt.Fprintf(s.err, "hostmcp: %v\n", err)
		return nil, false
	}
	return a, true
}

func quietLogger(s stdio) *slog.Logger {
	return slog.New(slog.NewTextHandler(s.err, &slog.HandlerOptions{Level: slog.LevelWarn}))
}
