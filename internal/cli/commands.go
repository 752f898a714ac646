// Package cli describes hostmcp's command line once: its commands, their
// arguments and flags, in the order they are shown. Parsing, each
// command's --help, the shell completions and the man page are all made
// from that one table, so none of them can promise what another refuses.
package cli

import (
	"strings"

	"github.com/hostmcp/hostmcp/internal/config"
)

// Flag is one command-line flag.
type Flag struct {
	Name string // without dashes
	// Arg names the value ("FILE"); empty for a boolean flag.
	Arg    string
	Usage  string
	Repeat bool // may be given more than once; every value is kept
	// Complete says what a shell completes its value with: "file", "dir",
	// or a fixed list of words.
	Complete Completion
}

// Completion is what a shell offers for a flag's value or an argument.
type Completion struct {
	Files bool     // file names
	Dirs  bool     // directory names
	Words []string // exactly these
}

// Command is one subcommand.
type Command struct {
	Name string
	// Args is the synopsis of its positional arguments ("TOOL [JSON]").
	Args    string
	Summary string
	// Detail is the help text's paragraph below the synopsis.
	Detail string
	// MinArgs and MaxArgs bound the positional arguments.
	MinArgs, MaxArgs int
	// ArgWords completes the first positional argument.
	ArgWords []string
	Flags    []Flag // its own flags, then the common ones when Common
	Common   bool
}

// LogLevels are the values --log-level takes.
func LogLevels() []string { return []string{"debug", "info", "warn", "error"} }

// Clients are the clients client-config writes a snippet for.
func Clients() []string {
	return []string{"claude-code", "claude-desktop", "vscode", "cursor"}
}

// Shells are the shells completion writes a script for.
func Shells() []string { return []string{"bash", "zsh"} }

// CommonFlags are the flags of every command that opens the server, in
// the order they are shown.
func CommonFlags() []Flag {
	return []Flag{
		{Name: "config", Arg: "FILE", Usage: "TOML configuration (see hostmcp.example.toml); else env HOSTMCP_CONFIG", Complete: Completion{Files: true}},
		{Name: "root", Arg: "DIR[:ro]", Usage: "allowed root for the file tools, :ro for read-only; repeatable", Repeat: true, Complete: Completion{Dirs: true}},
		{Name: "toolsets", Arg: "a,b", Usage: "toolsets to serve (default: each toolset's default)", Complete: Completion{Words: config.ToolsetNames()}},
		{Name: "read-only", Usage: "serve only read-only tools"},
		{Name: "state-dir", Arg: "DIR", Usage: "where the state database lives", Complete: Completion{Dirs: true}},
		{Name: "log-level", Arg: "LEVEL", Usage: "debug, info, warn or error (default: warn on stdio, info over HTTP)", Complete: Completion{Words: LogLevels()}},
	}
}

// httpFlags are serve's transport flags; doctor and config show take them
// too, to judge what serve would be given.
func httpFlags() []Flag {
	return []Flag{
		{Name: "http", Arg: "ADDR", Usage: "serve streamable HTTP on ADDR (host:port) instead of stdio"},
		{Name: "token-file", Arg: "FILE", Usage: "file holding the HTTP bearer token (else env HOSTMCP_TOKEN); owner-only", Complete: Completion{Files: true}},
	}
}

// Commands are hostmcp's commands, in the order usage lists them.
func Commands() []Command {
	return []Command{
		{Name: "serve", Summary: "serve MCP on stdio (default) or streamable HTTP",
			Detail: "Serves the MCP protocol until stdin closes (stdio) or SIGTERM/SIGINT. Logs go to stderr.",
			Flags:  httpFlags(), Common: true},
		{Name: "tools", Summary: "list the served tools",
			Flags: []Flag{
				{Name: "json", Usage: "print the tools/list entries as JSON"},
				{Name: "markdown", Usage: "print the tool reference as Markdown"},
			}, Common: true},
		{Name: "call", Args: "TOOL [JSON]", Summary: "run one tool in-process, print its envelope (exit 1 on a tool error)",
			Detail:  "JSON is the tool's arguments as one JSON object; default {}.",
			MinArgs: 1, MaxArgs: 2, Common: true},
		{Name: "triage", Summary: "a short health report of this machine (exit 1 when it finds a problem)", Common: true},
		{Name: "doctor", Summary: "what this configuration allows here, and what is wrong with it (exit 1 on a misconfiguration)",
			Detail: "Checks the configuration as serve would load it (with the same flags), the roots, the toolsets and tools served, the programs found, what this kernel and these privileges allow, the state directory, the token and the HTTP address. Each problem comes with its fix.",
			Flags:  httpFlags(), Common: true},
		{Name: "config", Args: "show", Summary: "print the effective configuration as TOML, with where each value came from",
			MinArgs: 1, MaxArgs: 1, ArgWords: []string{"show"}, Flags: httpFlags(), Common: true},
		{Name: "client-config", Args: "CLIENT", Summary: "print a client's configuration for this server: " + joinWords(Clients()),
			Detail:  "Over stdio the snippet starts this binary with the flags given here (--root, --config...); with --http it points at a running server, and the token is referred to as the environment variable HOSTMCP_TOKEN, never written inline.",
			MinArgs: 1, MaxArgs: 1, ArgWords: Clients(),
			Flags: []Flag{
				{Name: "http", Arg: "URL", Usage: "connect to a running server's endpoint (e.g. http://127.0.0.1:8765/mcp) instead of starting one over stdio"},
			}, Common: true},
		{Name: "completion", Args: "SHELL", Summary: "print a completion script: " + joinWords(Shells()),
			Detail:  "bash: source <(hostmcp completion bash); zsh: hostmcp completion zsh > \"${fpath[1]}/_hostmcp\".",
			MinArgs: 1, MaxArgs: 1, ArgWords: Shells()},
		{Name: "version", Summary: "print the version, the commit and the Go version"},
		{Name: "help", Args: "[COMMAND]", Summary: "show this help, or a command's", MaxArgs: 1, ArgWords: names()},
	}
}

// Lookup finds a command by name.
func Lookup(name string) (Command, bool) {
	for _, c := range Commands() {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// AllFlags are c's flags in the order they are shown: its own, then the
// common ones.
func (c Command) AllFlags() []Flag {
	fl := append([]Flag(nil), c.Flags...)
	if c.Common {
		fl = append(fl, CommonFlags()...)
	}
	return fl
}

// names are the commands help completes; help itself is left out.
func names() []string {
	return []string{"serve", "tools", "call", "triage", "doctor", "config", "client-config", "completion", "version"}
}

func joinWords(ws []string) string { return strings.Join(ws, ", ") }
