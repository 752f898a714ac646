// Command hostmcp is an MCP server that lets an AI agent operate and diagnose
// this Linux host. See README.md.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/hostmcp/hostmcp/internal/toolsets/profile/window"
	"github.com/hostmcp/hostmcp/internal/toolsets/repl/sessinit"
)

// version is set at link time (-ldflags "-X main.version=v1.2.3").
var version = "dev"

func main() {
	sessinit.Main() // a session init: never returns (see internal/toolsets/repl)
	window.Main()   // perf's workload: never returns (see internal/toolsets/profile)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usage = `hostmcp: an MCP server to operate and diagnose this Linux host.

Usage:
  hostmcp serve [--http ADDR] [--token-file FILE] [common flags]   serve MCP (stdio by default)
  hostmcp tools [--json | --markdown] [common flags]              list the served tools
  hostmcp call TOOL [JSON] [common flags]                         run one tool, print its envelope
  hostmcp triage [common flags]                                   a short health report of this machine
  hostmcp version

Common flags (before positional arguments):
  --config FILE      TOML configuration (see hostmcp.example.toml)
  --root DIR[:ro]    allowed root for file tools; repeatable
  --toolsets a,b     toolsets to serve (default: each toolset's default)
  --read-only        serve only read-only tools
  --state-dir DIR    where the state database lives
`

// io bundles the standard streams so tests can run commands in-process.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

func run(args []string, in io.Reader, out, errw io.Writer) int {
	s := stdio{in, out, errw}
	if len(args) == 0 {
		fmt.Fprint(errw, usage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve":
		return serveCmd(rest, s)
	case "tools":
		return toolsCmd(rest, s)
	case "call":
		return callCmd(rest, s)
	case "triage":
		return triageCmd(rest, s)
	case "version", "--version", "-v":
		fmt.Fprintf(out, "hostmcp %s\n", versionString())
		return 0
	case "help", "--help", "-h":
		fmt.Fprint(out, usage)
		return 0
	}
	fmt.Fprintf(errw, "hostmcp: unknown command %q\n\n%s", cmd, usage)
	return 2
}
