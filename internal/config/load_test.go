package config

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// loadDoc writes doc as hostmcp.toml in a fresh directory and loads it.
func loadDoc(t *testing.T, doc string) (*Config, string, error) {
	t.Helper()
	dir := tempDir(t)
	path := writeFile(t, dir, "hostmcp.toml", doc, 0o644)
	env := envMap(map[string]string{"XDG_STATE_HOME": dir})
	c, err := Load(Flags{ConfigPath: path}, env, dir)
	return c, dir, err
}

func TestLoadFileErrors(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string // each must appear in the error
	}{
		{
			name: "unknown key with line and suggestion",
			doc:  "[limits]\ndefault_timeout = \"5s\"\n\n\n\n\nouput_cap_bytes = 2048\n",
			want: []string{`hostmcp.toml:7: unknown key "limits.ouput_cap_bytes" (did you mean "limits.output_cap_bytes"?)`},
		},
		{
			name: "every unknown key is listed",
			doc:  "stat_dir = \"/x\"\n[limits]\nfoo = 1\n[tools.perf_snapshot]\ntimout = \"5s\"\n",
			want: []string{
				`hostmcp.toml:1: unknown key "stat_dir" (did you mean "state_dir"?)`,
				`hostmcp.toml:3: unknown key "limits.foo"`,
				`hostmcp.toml:5: unknown key "tools.perf_snapshot.timout" (did you mean "tools.perf_snapshot.timeout"?)`,
			},
		},
		{
			name: "unknown table",
			doc:  "[limit]\nmax_timeout = \"5s\"\n",
			want: []string{`hostmcp.toml:1: unknown key "limit" (did you mean "limits"?)`},
		},
		{
			name: "setting in the wrong table",
			doc:  "[limits]\nhandle_ttl = \"5m\"\n",
			want: []string{`hostmcp.toml:2: unknown key "limits.handle_ttl" (did you mean "store.handle_ttl"?)`},
		},
		{
			name: "syntax error with line and column",
			doc:  "[limits]\nmax_timeout = \"5s\"\n[http\naddr = \"\"\n",
			want: []string{`hostmcp.toml:3:6: `, `close table`},
		},
		{
			name: "wrong type",
			doc:  "[limits]\n\noutput_cap_bytes = \"big\"\n",
			want: []string{`hostmcp.toml:3:20: limits.output_cap_bytes: cannot decode TOML string`},
		},
		{
			name: "bad duration",
			doc:  "[store]\nhandle_ttl = \"soon\"\n",
			want: []string{`hostmcp.toml:2:14: store.handle_ttl: invalid duration "soon"`},
		},
		{
			name: "duration without unit",
			doc:  "[store]\nhandle_ttl = 3600\n",
			want: []string{`hostmcp.toml: `, `duration 3600 has no unit`},
		},
		{
			name: "duplicate key",
			doc:  "state_dir = \"/a\"\nstate_dir = \"/b\"\n",
			want: []string{`hostmcp.toml:2:1: `, `already defined`},
		},
		{
			name: "an empty roots list is not the default",
			doc:  "roots = []\n",
			want: []string{"roots: empty; give at least one [[roots]] path"},
		},
		{
			name: "validation after loading",
			doc:  "[limits]\noutput_cap_bytes = 10\n",
			want: []string{"invalid configuration", "limits.output_cap_bytes 10: must be between 1024"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, dir, err := loadDoc(t, tc.doc)
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			// The path in messages is the one given; make it short to compare.
			got := strings.ReplaceAll(err.Error(), filepath.Join(dir, "hostmcp.toml"), "hostmcp.toml")
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("error:\n%s\nwant it to contain %q", got, w)
				}
			}
		})
	}
}

func TestLoadFileValues(t *testing.T) {
	doc := `
state_dir = "state"

[[roots]]
path = "project"

[[roots]]
path = "docs"
read_only = true

[toolsets]
enabled = ["system", "perf"]
read_only = true

[limits]
default_timeout = "20s"
max_timeout = "2m"

[tools.perf_snapshot]
timeout = "10s"
output_cap_bytes = 131072

[http]
addr = "127.0.0.1:8765"
token_file = "secret/token"

[exec]
extra_path = ["bin"]
`
	dir := tempDir(t)
	mkdirs(t, dir, "conf/project", "conf/docs", "elsewhere")
	path := writeFile(t, filepath.Join(dir, "conf"), "hostmcp.toml", doc, 0o644)
	// cwd differs from the file's directory: relative paths follow the file.
	got, err := Load(Flags{}, envMap(map[string]string{EnvConfig: path}), filepath.Join(dir, "elsewhere"))
	if err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(dir, "conf")
	want := Default(conf, 0, envMap(nil))
	want.StateDir = filepath.Join(conf, "state")
	want.Roots = []Root{{Path: filepath.Join(conf, "project")}, {Path: filepath.Join(conf, "docs"), ReadOnly: true}}
	want.Toolsets = ToolsetsConf{Enabled: []string{"system", "perf"}, ReadOnly: true}
	want.Limits.DefaultTimeout = Duration{20 * time.Second}
	want.Limits.MaxTimeout = Duration{2 * time.Minute}
	want.Tools = map[string]ToolConf{"perf_snapshot": {Timeout: Duration{10 * time.Second}, OutputCapBytes: 131072}}
	want.HTTP.Addr = "127.0.0.1:8765"
	want.HTTP.TokenFile = filepath.Join(conf, "secret/token")
	want.Exec.ExtraPath = []string{filepath.Join(conf, "bin")}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("Load (-got +want):\n%s", diff)
	}
}

func TestLoadNoFile(t *testing.T) {
	dir := tempDir(t)
	env := envMap(map[string]string{"XDG_STATE_HOME": dir})
	got, err := Load(Flags{}, env, dir)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, Default(dir, 1000, env)); diff != "" {
		t.Errorf("Load with nothing set (-got +want):\n%s", diff)
	}
}

func TestLoadMissingFile(t *testing.T) {
	dir := tempDir(t)
	_, err := Load(Flags{ConfigPath: "nope.toml"}, envMap(nil), dir)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "nope.toml")) {
		t.Fatalf("Load of a missing file: error = %v, want one naming the file", err)
	}
}

func TestDefaultStateDir(t *testing.T) {
	tests := []struct {
		name string
		uid  int
		env  map[string]string
		want string
	}{
		{"xdg", 1000, map[string]string{"XDG_STATE_HOME": "/x/state", "HOME": "/home/u"}, "/x/state/hostmcp"},
		{"xdg wins for root too", 0, map[string]string{"XDG_STATE_HOME": "/x/state"}, "/x/state/hostmcp"},
		{"relative xdg ignored", 1000, map[string]string{"XDG_STATE_HOME": "state", "HOME": "/home/u"}, "/home/u/.local/state/hostmcp"},
		{"root", 0, map[string]string{"HOME": "/root"}, "/var/lib/hostmcp"},
		{"user", 1000, map[string]string{"HOME": "/home/u"}, "/home/u/.local/state/hostmcp"},
		{"no home", 1000, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Default("/", tc.uid, envMap(tc.env)).StateDir; got != tc.want {
				t.Errorf("StateDir = %q, want %q", got, tc.want)
			}
		})
	}
}

// A [repl.args] table replaces the lists of the programs it names and
// keeps the default lists of the others.
func TestLoadReplArgsMerge(t *testing.T) {
	c, _, err := loadDoc(t, "[repl.args]\npython3 = [\"-q\"]\nsh = []\n")
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultReplArgs()
	want["python3"] = []string{"-q"}
	want["sh"] = []string{}
	if diff := cmp.Diff(c.Repl.Args, want); diff != "" {
		t.Errorf("repl.args (-got +want):\n%s", diff)
	}
}
