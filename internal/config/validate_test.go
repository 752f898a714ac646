package config

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestValidate(t *testing.T) {
	dir := tempDir(t)
	file := writeFile(t, dir, "plain", "", 0o644)
	tests := []struct {
		name   string
		mutate func(c *Config)
		want   []string // each must appear; none means valid
	}{
		{"defaults", func(c *Config) {}, nil},
		{"full valid", func(c *Config) {
			c.Roots = append(c.Roots, Root{Path: "/", ReadOnly: false})
			c.Toolsets.Enabled = ToolsetNames()
			c.Tools = map[string]ToolConf{"a": {Timeout: Duration{time.Minute}, OutputCapBytes: 1 << 20}, "b": {}}
			c.HTTP.Addr = "[::1]:0"
			c.Exec.ExtraPath = []string{"/opt/bin"}
		}, nil},
		{"no state dir", func(c *Config) { c.StateDir = "" }, []string{"state_dir: not set", "--state-dir"}},
		{"relative state dir", func(c *Config) { c.StateDir = "state" }, []string{`state_dir "state": must be an absolute path`}},
		{"client roots narrow", func(c *Config) { c.ClientRoots = ClientRootsNarrow }, nil},
		{"log level", func(c *Config) { c.Log.Level = "DEBUG" }, nil},
		{"log level unknown", func(c *Config) { c.Log.Level = "verbose" }, []string{`log.level "verbose": want debug, info, warn or error`}},
		{"client roots unknown", func(c *Config) { c.ClientRoots = "widen" }, []string{`client_roots "widen": want "ignore" or "narrow"`}},
		{"views unknown", func(c *Config) { c.Views.MCPApps = "yes" }, []string{`views.mcp_apps "yes": want "auto", "always" or "off"`}},
		{"no roots", func(c *Config) { c.Roots = nil }, []string{"roots: empty; give at least one [[roots]] path"}},
		{"bad roots", func(c *Config) {
			c.Roots = []Root{{Path: ""}, {Path: "rel"}, {Path: filepath.Join(dir, "gone")}, {Path: file}}
		}, []string{
			`roots[0].path "": empty`,
			`roots[1].path "rel": must be an absolute directory`,
			`roots[2].path "` + filepath.Join(dir, "gone") + `": does not exist`,
			`roots[3].path "` + file + `": not a directory`,
		}},
		{"unknown toolsets", func(c *Config) { c.Toolsets.Enabled = []string{"perf", "proces", "x"} },
			[]string{`toolsets.enabled: unknown toolset "proces", "x"; valid: core, files, search, edit, proc, repl, system, perf, profile, trace, bpftrace, stats, onboarding, fleet`}},
		{"zero timeouts", func(c *Config) { c.Limits.DefaultTimeout = Duration{}; c.Limits.MaxTimeout = Duration{-time.Second} },
			[]string{`limits.default_timeout 0s: must be greater than zero`, `limits.max_timeout -1s: must be greater than zero`}},
		{"default over max", func(c *Config) { c.Limits.DefaultTimeout = Duration{2 * time.Minute} },
			[]string{`limits.default_timeout 2m0s: must not exceed limits.max_timeout (1m0s)`}},
		{"output cap too small", func(c *Config) { c.Limits.OutputCapBytes = 1023 },
			[]string{`limits.output_cap_bytes 1023: must be between 1024 and limits.max_output_bytes (1048576)`}},
		{"output cap over max", func(c *Config) { c.Limits.OutputCapBytes = 2 << 20 },
			[]string{`limits.output_cap_bytes 2097152: must be between 1024 and limits.max_output_bytes (1048576)`}},
		{"max output over ceiling", func(c *Config) { c.Limits.MaxOutputBytes = 17 << 20 },
			[]string{`limits.max_output_bytes 17825792: must be between 1024 and 16777216`}},
		{"tool overrides", func(c *Config) {
			c.Tools = map[string]ToolConf{
				"slow": {Timeout: Duration{2 * time.Minute}},
				"neg":  {Timeout: Duration{-time.Second}},
				"big":  {OutputCapBytes: 4 << 20},
			}
		}, []string{
			`tools.slow.timeout 2m0s: must be between 0 (inherit) and limits.max_timeout (1m0s)`,
			`tools.neg.timeout -1s: must be between 0`,
			`tools.big.output_cap_bytes 4194304: must be between 1024 and limits.max_output_bytes`,
		}},
		{"store", func(c *Config) { c.Store = StoreConf{HandleBudgetBytes: 1<<20 - 1} }, []string{
			`store.handle_ttl 0s: must be greater than zero`,
			`store.handle_budget_bytes 1048575: must be at least 1048576 (1 MiB)`,
			`store.call_retention 0: must be at least 1`,
		}},
		{"http addr without port", func(c *Config) { c.HTTP.Addr = "127.0.0.1" },
			[]string{`http.addr "127.0.0.1": `, `missing port`, `want host:port like "127.0.0.1:8765", or empty for stdio`}},
		{"http addr bad port", func(c *Config) { c.HTTP.Addr = "localhost:http" },
			[]string{`http.addr "localhost:http": port "http" is not a number from 0 to 65535`}},
		{"http port too big", func(c *Config) { c.HTTP.Addr = ":70000" }, []string{`port "70000" is not a number`}},
		{"http sizes", func(c *Config) { c.HTTP.MaxBodyBytes = 1; c.HTTP.MaxHeaderBytes = 2 << 20 }, []string{
			`http.max_body_bytes 1: must be between 65536 and 268435456`,
			`http.max_header_bytes 2097152: must be between 4096 and 1048576`,
		}},
		{"http token file relative", func(c *Config) { c.HTTP.TokenFile = "tok" }, []string{`http.token_file "tok": must be an absolute path`}},
		{"extra path", func(c *Config) { c.Exec.ExtraPath = []string{"/ok", "bin"} }, []string{`exec.extra_path[1] "bin": must be an absolute directory`}},
		{"stdio", func(c *Config) { c.Stdio.MaxMessageBytes = 0 }, []string{`stdio.max_message_bytes 0: must be between 65536 and 268435456`}},
		{"repl users", func(c *Config) { c.Repl.User = "nobody" }, nil},
		{"repl uid", func(c *Config) { c.Repl.User = "0" }, nil},
		{"repl unknown user", func(c *Config) { c.Repl.User = "no-such-user-hostmcp" },
			[]string{`repl.user "no-such-user-hostmcp": `, `want a user name or numeric uid`}},
		{"repl args", func(c *Config) {
			c.Repl.Args = map[string][]string{"py/thon": {"-q"}, "node": {"", "a\x00b", strings.Repeat("x", 257)}, "many": make([]string, 65)}
		}, []string{
			`repl.args.py/thon: want a bare program name`,
			`repl.args.node[0] "": want a non-empty argument of at most 256 bytes`,
			`repl.args.node[1] "a\x00b"`,
			`repl.args.node[2] "xxx`,
			`repl.args.many: 65 entries; at most 64`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Default(dir, 0, envMap(nil))
			tc.mutate(c)
			err := c.Validate()
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("Validate succeeded, want errors")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error:\n%s\nwant it to contain %q", err, w)
				}
			}
		})
	}
}

// TestValidateListsEvery checks that unrelated problems are all reported,
// each as its own error, rather than the first one only.
func TestValidateListsEvery(t *testing.T) {
	c := Default("/", 0, envMap(nil))
	c.StateDir = "rel"
	c.Limits.OutputCapBytes = 1
	c.Store.CallRetention = 0
	c.HTTP.Addr = "nope"
	var joined interface{ Unwrap() []error }
	if err := c.Validate(); !errors.As(err, &joined) {
		t.Fatalf("Validate error = %v, want joined errors", err)
	}
	if got := len(joined.Unwrap()); got != 4 {
		t.Errorf("got %d errors, want 4:\n%v", got, errors.Join(joined.Unwrap()...))
	}
}

func TestCheckToolNames(t *testing.T) {
	known := []string{"perf_snapshot", "fs_read", "sys_snapshot"}
	tests := []struct {
		name  string
		tools []string
		want  []string
	}{
		{"none", nil, nil},
		{"known", []string{"fs_read", "perf_snapshot"}, nil},
		{"typo", []string{"perf_snapshto"}, []string{`tools.perf_snapshto: no tool is named "perf_snapshto" (did you mean "perf_snapshot"?)`}},
		{"unknown", []string{"zzz", "fs_read"}, []string{`tools.zzz: no tool is named "zzz"; known tools: fs_read, perf_snapshot, sys_snapshot`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &Config{Tools: map[string]ToolConf{}}
			for _, n := range tc.tools {
				c.Tools[n] = ToolConf{}
			}
			err := c.CheckToolNames(known)
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("CheckToolNames: %v", err)
				}
				return
			}
			for _, w := range tc.want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("CheckToolNames error = %v, want it to contain %q", err, w)
				}
			}
		})
	}
}

func TestToolLimits(t *testing.T) {
	c := Default("/", 0, envMap(nil))
	c.Tools = map[string]ToolConf{
		"both":    {Timeout: Duration{5 * time.Second}, OutputCapBytes: 2048},
		"cap":     {OutputCapBytes: 4096},
		"timeout": {Timeout: Duration{30 * time.Second}},
	}
	tests := []struct {
		tool        string
		category    time.Duration
		wantTimeout time.Duration
		toolCap     int
		wantCap     int
	}{
		{"plain", 0, 15 * time.Second, 0, 64 << 10},
		{"plain", 0, 15 * time.Second, 256 << 10, 256 << 10}, // the tool's own larger cap
		{"plain", 0, 15 * time.Second, 4 << 20, 1 << 20},     // cut to max_output_bytes
		{"cap", 0, 15 * time.Second, 256 << 10, 4096},        // the operator's setting wins
		{"plain", 3 * time.Second, 3 * time.Second, 0, 64 << 10},
		{"plain", 5 * time.Minute, time.Minute, 0, 64 << 10}, // cut to max_timeout
		{"both", 3 * time.Second, 5 * time.Second, 0, 2048},
		{"cap", 3 * time.Second, 3 * time.Second, 0, 4096},
		{"timeout", 0, 30 * time.Second, 0, 64 << 10},
	}
	for _, tc := range tests {
		t.Run(tc.tool+"/"+tc.category.String(), func(t *testing.T) {
			gotTimeout, gotCap := c.ToolLimits(tc.tool, tc.category, tc.toolCap)
			if gotTimeout != tc.wantTimeout || gotCap != tc.wantCap {
				t.Errorf("ToolLimits(%q, %s) = %s, %d; want %s, %d", tc.tool, tc.category, gotTimeout, gotCap, tc.wantTimeout, tc.wantCap)
			}
		})
	}
}
