package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Show writes TOML that Load reads back to the same configuration, each
// value labelled with its layer: a flag over an environment variable over
// the file over the default.
func TestShow(t *testing.T) {
	dir := tempDir(t)
	for _, d := range []string{"a", "b", "state"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "hostmcp.toml")
	doc := "[limits]\nmax_timeout = \"90s\"\n[tools.fs_read]\ntimeout = \"5s\"\n[[roots]]\npath = \"a\"\n"
	if err := os.WriteFile(file, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	env := envMap(map[string]string{"HOSTMCP_TOOLSETS": "files,perf", "HOSTMCP_READONLY_ROOTS": filepath.Join(dir, "b"), "XDG_STATE_HOME": dir})
	flags := Flags{ConfigPath: file, Toolsets: "files", LogLevel: "debug"}
	c, src, err := LoadWithSources(flags, env, dir)
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Show(src)
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	for _, want := range []string{
		"max_timeout = '1m30s'  # file " + file,
		"default_timeout = '15s'  # default",
		"timeout = '5s'  # file " + file,
		"enabled = ['files']  # flag --toolsets",
		"[[roots]]  # env HOSTMCP_READONLY_ROOTS",
		"level = 'debug'  # flag --log-level",
		"max_calls = 64  # default",
	} {
		if !strings.Contains(text, want+"\n") {
			t.Errorf("show lacks %q:\n%s", want, text)
		}
	}

	// Read back, it is the same configuration.
	back := filepath.Join(dir, "shown.toml")
	if err := os.WriteFile(back, out, 0o600); err != nil {
		t.Fatal(err)
	}
	again, err := Load(Flags{ConfigPath: back}, envMap(nil), dir)
	if err != nil {
		t.Fatalf("show's output does not load: %v\n%s", err, text)
	}
	if diff := cmp.Diff(again, c, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("loaded back (-got +want):\n%s", diff)
	}
}

// Each environment variable envKeys names changes exactly the settings it
// lists, so Show never labels a value with the wrong layer.
func TestEnvKeysAgreeWithApplyEnv(t *testing.T) {
	dir := tempDir(t)
	values := map[string]string{
		EnvRoots: filepath.Join(dir, "r"), EnvReadOnlyRoots: dir, EnvToolsets: "files", EnvReadOnly: "1",
		EnvStateDir: filepath.Join(dir, "s"), EnvHTTPAddr: "127.0.0.1:1", EnvTokenFile: filepath.Join(dir, "t"), EnvLogLevel: "debug",
	}
	for name, keys := range envKeys() {
		base := Default(dir, 0, envMap(nil))
		got := Default(dir, 0, envMap(nil))
		if err := got.applyEnv(envMap(map[string]string{name: values[name]}), dir); err != nil {
			t.Fatal(err)
		}
		changed := changedKeys(base, got)
		if diff := cmp.Diff(changed, keys); diff != "" {
			t.Errorf("%s changes (-got +want):\n%s", name, diff)
		}
	}
}

// changedKeys are the top-level keys, and the keys of tables, whose values
// differ between a and b, as Keys spells them.
func changedKeys(a, b *Config) []string {
	var out []string
	for _, k := range []struct {
		key  string
		diff bool
	}{
		{"roots", !cmp.Equal(a.Roots, b.Roots)},
		{"toolsets.enabled", !cmp.Equal(a.Toolsets.Enabled, b.Toolsets.Enabled)},
		{"toolsets.read_only", a.Toolsets.ReadOnly != b.Toolsets.ReadOnly},
		{"state_dir", a.StateDir != b.StateDir},
		{"http.addr", a.HTTP.Addr != b.HTTP.Addr},
		{"http.token_file", a.HTTP.TokenFile != b.HTTP.TokenFile},
		{"log.level", a.Log.Level != b.Log.Level},
	} {
		if k.diff {
			out = append(out, k.key)
		}
	}
	if cmp.Equal(a, b, cmpopts.IgnoreFields(Config{}, "Roots", "Toolsets", "StateDir", "HTTP.Addr", "HTTP.TokenFile", "Log")) {
		return out
	}
	return append(out, "something else")
}
