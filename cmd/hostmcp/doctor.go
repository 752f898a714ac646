package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/hostmcp/hostmcp/internal/cli"
	"github.com/hostmcp/hostmcp/internal/doctor"
)

// doctorCmd reports what this configuration allows here; it exits 1 when
// something is misconfigured, so scripts and packaging can run it.
func doctorCmd(p *cli.Parsed, s stdio) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(s.err, "hostmcp: finding the working directory: %v\n", err)
		return 1
	}
	facts := doctor.Collect(ctx, &doctor.Options{Flags: configFlags(p), Env: os.Getenv, Cwd: cwd, Version: buildInfo().Short()})
	rep := doctor.Judge(facts)
	if err := rep.Write(s.out); err != nil {
		fmt.Fprintf(s.err, "hostmcp: %v\n", err)
		return 1
	}
	if rep.Failed() {
		return 1
	}
	return 0
}
