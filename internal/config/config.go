// Package config turns the TOML file, the environment and the command line
// into one validated Config. Precedence, lowest first: defaults, file,
// environment, flags. The file is strict: an unknown key is an error with its
// line, because a misspelt guardrail that is silently ignored is worse than
// no guardrail at all.
package config

import (
	"path/filepath"
	"time"
)

// Config is everything an operator can set. The agent can change none of it.
type Config struct {
	StateDir string `toml:"state_dir"`
	// ClientRoots says what a client's MCP roots do: ClientRootsIgnore
	// (the default) serves the configured roots whatever the client lists;
	// ClientRootsNarrow serves only their overlap with the client's. It is
	// a top-level key because [[roots]] is the list of roots itself.
	ClientRoots string              `toml:"client_roots"`
	Roots       []Root              `toml:"roots"`
	Toolsets    ToolsetsConf        `toml:"toolsets"`
	Limits      Limits              `toml:"limits"`
	Tools       map[string]ToolConf `toml:"tools"`
	Store       StoreConf           `toml:"store"`
	HTTP        HTTPConf            `toml:"http"`
	Exec        ExecConf            `toml:"exec"`
	Stdio       StdioConf           `toml:"stdio"`
	Repl        ReplConf            `toml:"repl"`
	Process     ProcessConf         `toml:"process"`
	Bpftrace    BpftraceConf        `toml:"bpftrace"`
	Load        LoadConf            `toml:"load"`
	Log         LogConf             `toml:"log"`
	Views       ViewsConf           `toml:"views"`
	Confirm     ConfirmConf         `toml:"confirm"`
	Host        HostConf            `toml:"host"`
	Fleet       FleetConf           `toml:"fleet"`
}

// Root is a directory file tools may work in. After Load its Path is
// absolute, cleaned and free of symlinks, so later code can compare roots.
type Root struct {
	Path     string `toml:"path"`
	ReadOnly bool   `toml:"read_only"`
	// Given is the path as the operator wrote it, when it was a symbolic
	// link that normalize resolved into Path; paths under it stay valid.
	Given string `toml:"-"`
}

// The values of client_roots. Ignoring is the default: clients such as
// Claude Code list their own working directory, which may lie anywhere, and
// narrowing to it then refused every file tool; ignoring a client's roots
// never widens what the server allows. The newest protocol revision
// deprecates roots altogether.
const (
	ClientRootsIgnore = "ignore"
	ClientRootsNarrow = "narrow"
)

// ToolsetsConf chooses what is served.
type ToolsetsConf struct {
	// Enabled names the toolsets to serve; empty serves each toolset that
	// is on by default. core is always served.
	Enabled []string `toml:"enabled"`
	// ReadOnly serves only tools that change nothing.
	ReadOnly bool `toml:"read_only"`
}

// Limits bound every tool call unless tools.<name> says otherwise.
type Limits struct {
	DefaultTimeout Duration `toml:"default_timeout"`
	MaxTimeout     Duration `toml:"max_timeout"`
	OutputCapBytes int      `toml:"output_cap_bytes"`
	MaxOutputBytes int      `toml:"max_output_bytes"`
}

// ToolConf overrides the limits of one tool; zero values inherit.
type ToolConf struct {
	Timeout        Duration `toml:"timeout"`
	OutputCapBytes int      `toml:"output_cap_bytes"`
	// Enabled serves (true) or withholds (false) one tool whatever its
	// toolset says; unset follows the tool's own default, which is off for
	// sensitive tools such as sys_logs.
	Enabled *bool `toml:"enabled"`
}

// StoreConf sizes the state database.
type StoreConf struct {
	HandleTTL         Duration `toml:"handle_ttl"`
	HandleBudgetBytes int64    `toml:"handle_budget_bytes"`
	CallRetention     int      `toml:"call_retention"`
}

// HTTPConf is the streamable HTTP transport; an empty Addr means stdio.
type HTTPConf struct {
	Addr           string `toml:"addr"`
	TokenFile      string `toml:"token_file"`
	MaxBodyBytes   int64  `toml:"max_body_bytes"`
	MaxHeaderBytes int    `toml:"max_header_bytes"`
}

// ExecConf shapes how allowlisted programs are found.
type ExecConf struct {
	// ExtraPath are absolute directories searched after the fixed safe PATH.
	ExtraPath []string `toml:"extra_path"`
}

// StdioConf bounds the stdio transport, which otherwise reads messages of
// any size.
type StdioConf struct {
	MaxMessageBytes int `toml:"max_message_bytes"`
}

// ViewsConf says which clients are shown the MCP App that draws profiles
// and latency histograms (package view).
type ViewsConf struct {
	// MCPApps is ViewsAuto (the default): clients that declare the MCP
	// Apps extension; ViewsAlways: every client of protocol 2025-06-18 or
	// later, for hosts over stateless HTTP before 2026-07-28, whose
	// requests do not carry the capabilities they declared at initialize;
	// ViewsOff: none, and the page is not served.
	MCPApps string `toml:"mcp_apps"`
}

// The values of [views] mcp_apps.
const (
	ViewsAuto   = "auto"
	ViewsAlways = "always"
	ViewsOff    = "off"
)

// Default is the configuration with nothing set: the working directory as
// the only root, stdio, and the limits DESIGN.md gives. env and uid decide
// the state directory, so tests can choose them.
func Default(cwd string, uid int, env func(string) string) *Config {
	return &Config{
		StateDir:    defaultStateDir(uid, env),
		ClientRoots: ClientRootsIgnore,
		Roots:       []Root{{Path: cwd}},
		Limits: Limits{
			DefaultTimeout: Duration{15 * time.Second},
			MaxTimeout:     Duration{60 * time.Second},
			OutputCapBytes: 64 << 10,
			MaxOutputBytes: 1 << 20,
		},
		Store: StoreConf{
			HandleTTL:         Duration{time.Hour},
			HandleBudgetBytes: 256 << 20,
			CallRetention:     100000,
		},
		HTTP: HTTPConf{
			MaxBodyBytes:   4 << 20,
			MaxHeaderBytes: 64 << 10,
		},
		Stdio:    StdioConf{MaxMessageBytes: 4 << 20},
		Repl:     DefaultRepl(),
		Process:  DefaultProcess(),
		Bpftrace: DefaultBpftrace(),
		Load:     DefaultLoad(),
		Views:    ViewsConf{MCPApps: ViewsAuto},
		Confirm:  DefaultConfirm(),
		Host:     HostConf{Proc: "/proc", Sys: "/sys"},
		Fleet:    DefaultFleet(),
	}
}

// defaultStateDir follows the XDG base directory spec, which ignores a
// relative XDG_STATE_HOME; root without one gets the system location. An
// empty result (no HOME) is reported by Validate.
func defaultStateDir(uid int, env func(string) string) string {
	if x := env("XDG_STATE_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "hostmcp")
	}
	if uid == 0 {
		return "/var/lib/hostmcp"
	}
	if h := env("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "hostmcp")
	}
	return ""
}

// ToolsetNames are the toolsets the configuration may name, in catalogue
// order. The server may have fewer built in; it checks that itself.
func ToolsetNames() []string {
	return []string{"core", "files", "search", "edit", "proc", "repl", "system", "perf",
		"profile", "trace", "bpftrace", "stats", "onboarding", "fleet"}
}

// ToolLimits resolves the time limit and output cap of one tool:
// tools.<name> first, then the tool's own defaults (its category timeout, and
// a larger cap for tools whose answers are legitimately big, like profiles),
// then [limits]; max_timeout and max_output_bytes are ceilings nothing passes.
func (c *Config) ToolLimits(tool string, toolTimeout time.Duration, toolCap int) (time.Duration, int) {
	timeout := c.Limits.DefaultTimeout.Duration
	if toolTimeout > 0 {
		timeout = toolTimeout
	}
	outputCap := c.Limits.OutputCapBytes
	if toolCap > 0 {
		outputCap = toolCap
	}
	if tc, ok := c.Tools[tool]; ok {
		if tc.Timeout.Duration > 0 {
			timeout = tc.Timeout.Duration
		}
		if tc.OutputCapBytes > 0 {
			outputCap = tc.OutputCapBytes
		}
	}
	if m := c.Limits.MaxTimeout.Duration; m > 0 && timeout > m {
		timeout = m
	}
	if m := c.Limits.MaxOutputBytes; m > 0 && outputCap > m {
		outputCap = m
	}
	return timeout, outputCap
}
