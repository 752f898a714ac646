package clientconf

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hostmcp/hostmcp/internal/config"
)

func TestServeArgs(t *testing.T) {
	cwd := t.TempDir()
	for _, d := range []string{"app", "logs", "state"} {
		if err := os.Mkdir(filepath.Join(cwd, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	conf := filepath.Join(cwd, "hostmcp.toml")
	if err := os.WriteFile(conf, []byte("[[roots]]\npath = \"app\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(string) string { return "" }
	yes := true
	for _, tc := range []struct {
		name  string
		flags config.Flags
		env   func(string) string
		want  []string
	}{
		{"nothing names the working directory", config.Flags{}, env, []string{"serve", "--root", cwd}},
		{"relative roots become absolute", config.Flags{Roots: []string{"app", "logs:ro"}, ReadOnly: &yes, Toolsets: "files,perf"}, env,
			[]string{"serve", "--root", cwd + "/app", "--root", cwd + "/logs:ro", "--toolsets", "files,perf", "--read-only=true"}},
		{"a config file names the roots", config.Flags{ConfigPath: "hostmcp.toml", StateDir: "state", LogLevel: "info"}, env,
			[]string{"serve", "--config", conf, "--state-dir", cwd + "/state", "--log-level", "info"}},
		{"HOSTMCP_CONFIG is made a flag", config.Flags{}, func(k string) string {
			if k == config.EnvConfig {
				return conf
			}
			return ""
		}, []string{"serve", "--config", conf}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.flags.StateDir = orDefault(tc.flags.StateDir, cwd+"/state")
			got, err := ServeArgs(tc.flags, tc.env, cwd)
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if !contains(want, "--state-dir") {
				want = append(want, "--state-dir", cwd+"/state")
			}
			if diff := cmp.Diff(sortedFlags(got), sortedFlags(want)); diff != "" {
				t.Errorf("(-got +want):\n%s", diff)
			}
		})
	}
	if _, err := ServeArgs(config.Flags{Roots: []string{"missing"}, StateDir: cwd}, env, cwd); err == nil {
		t.Error("a root that does not exist was accepted")
	}
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

func contains(s []string, w string) bool {
	for _, x := range s {
		if x == w {
			return true
		}
	}
	return false
}

// sortedFlags compares argument lists as sets of "--flag value" pairs,
// keeping repeated --root in order.
func sortedFlags(args []string) map[string][]string {
	m := map[string][]string{"": {args[0]}}
	for i := 1; i < len(args); i++ {
		if i+1 < len(args) && args[i+1][0] != '-' {
			m[args[i]] = append(m[args[i]], args[i+1])
			i++
		} else {
			m[args[i]] = append(m[args[i]], "")
		}
	}
	return m
}
