// Command hostmcp is an MCP server that lets an AI agent operate and diagnose
// this Linux host. See README.md. Its command line is described once, in
// internal/cli; this package parses it and hands each command to the
// internal packages that do the work.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/hostmcp/hostmcp/internal/buildinfo"
	"github.com/hostmcp/hostmcp/internal/cli"
	"github.com/hostmcp/hostmcp/internal/toolsets/profile/window"
	"github.com/hostmcp/hostmcp/internal/toolsets/repl/sessinit"
)

// version and commit may be set at link time (-ldflags "-X
// main.version=v1.2.3 -X main.commit=$(git rev-parse HEAD)"); see
// buildinfo.Read.
var version, commit string

func main() {
	sessinit.Main() // a session init: never returns (see internal/toolsets/repl)
	window.Main()   // perf's workload: never returns (see internal/toolsets/profile)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// stdio bundles the standard streams so tests can run commands in-process.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// handler is the function that runs a command once its arguments are
// parsed; nil for a name the table does not have.
func handler(name string) func(*cli.Parsed, stdio) int {
	switch name {
	case "serve":
		return serveCmd
	case "tools":
		return toolsCmd
	case "call":
		return callCmd
	case "triage":
		return triageCmd
	case "doctor":
		return doctorCmd
	case "config":
		return configCmd
	case "client-config":
		return clientConfigCmd
	case "completion":
		return completionCmd
	case "version":
		return versionCmd
	case "help":
		return helpCmd
	}
	return nil
}

func run(args []string, in io.Reader, out, errw io.Writer) int {
	s := stdio{in, out, errw}
	if len(args) == 0 {
		fmt.Fprint(errw, cli.Usage())
		return 2
	}
	name := args[0]
	switch name {
	case "--help", "-h":
		name = "help"
	case "--version", "-v":
		name = "version"
	}
	cmd, ok := cli.Lookup(name)
	if !ok {
		fmt.Fprintf(errw, "hostmcp: unknown command %q\n\n%s", name, cli.Usage())
		return 2
	}
	p, err := cli.Parse(cmd, args[1:])
	if errors.Is(err, cli.ErrHelp) {
		fmt.Fprint(out, cmd.Help())
		return 0
	}
	if err != nil {
		fmt.Fprintf(errw, "hostmcp %v\nUsage: %s (hostmcp %s --help for more)\n", err, cmd.Synopsis(), cmd.Name)
		return 2
	}
	return handler(cmd.Name)(p, s)
}

func versionCmd(_ *cli.Parsed, s stdio) int {
	fmt.Fprintln(s.out, buildInfo().String())
	return 0
}

func helpCmd(p *cli.Parsed, s stdio) int {
	if len(p.Args) == 0 {
		fmt.Fprint(s.out, cli.Usage())
		return 0
	}
	cmd, ok := cli.Lookup(p.Args[0])
	if !ok {
		fmt.Fprintf(s.err, "hostmcp help: unknown command %q\n\n%s", p.Args[0], cli.Usage())
		return 2
	}
	fmt.Fprint(s.out, cmd.Help())
	return 0
}

func buildInfo() buildinfo.Info { return buildinfo.Read(version, commit) }
