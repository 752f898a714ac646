package main

import (
	"fmt"
	"os"

	"github.com/hostmcp/hostmcp/internal/cli"
	"github.com/hostmcp/hostmcp/internal/config"
)

// configCmd prints the effective configuration (`config show`, its one
// subcommand) with where each value came from.
func configCmd(p *cli.Parsed, s stdio) int {
	if p.Args[0] != "show" {
		fmt.Fprintf(s.err, "hostmcp config: unknown subcommand %q; want show\n", p.Args[0])
		return 2
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(s.err, "hostmcp: finding the working directory: %v\n", err)
		return 1
	}
	cfg, src, err := config.LoadWithSources(configFlags(p), os.Getenv, cwd)
	if err != nil {
		fmt.Fprintf(s.err, "hostmcp: %v\n", err)
		return 1
	}
	out, err := cfg.Show(src)
	if err != nil {
		fmt.Fprintf(s.err, "hostmcp: %v\n", err)
		return 1
	}
	_, _ = s.out.Write(out)
	return 0
}
