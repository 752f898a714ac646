package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// layers is a test fixture: a directory with a file that sets what env and
// flags may override, and the directories those layers name.
func layers(t *testing.T) (dir, path string) {
	t.Helper()
	dir = tempDir(t)
	mkdirs(t, dir, "file-root", "env-rw", "env-ro", "flag-a", "flag-b")
	path = writeFile(t, dir, "hostmcp.toml", `
state_dir = "file-state"
[[roots]]
path = "file-root"
[toolsets]
enabled = ["files"]
read_only = false
[http]
addr = "127.0.0.1:1111"
token_file = "file-token"
`, 0o644)
	return dir, path
}

// picked is the part of Config the layers set.
type picked struct {
	StateDir, Addr, TokenFile string
	Roots                     []Root
	Enabled                   []string
	ReadOnly                  bool
}

func pick(c *Config) picked {
	return picked{c.StateDir, c.HTTP.Addr, c.HTTP.TokenFile, c.Roots, c.Toolsets.Enabled, c.Toolsets.ReadOnly}
}

func TestLayers(t *testing.T) {
	dir, path := layers(t)
	env := map[string]string{
		EnvStateDir:      "env-state",
		EnvRoots:         filepath.Join(dir, "env-rw") + "::",
		EnvReadOnlyRoots: "env-ro",
		EnvToolsets:      "system, perf",
		EnvReadOnly:      "true",
		EnvHTTPAddr:      "127.0.0.1:2222",
		EnvTokenFile:     "env-token",
	}
	no := false
	flags := Flags{
		ConfigPath: path,
		Roots:      []string{"flag-a:ro", filepath.Join(dir, "flag-b")},
		Toolsets:   "proc",
		ReadOnly:   &no,
		StateDir:   "flag-state",
		HTTPAddr:   "127.0.0.1:3333",
		TokenFile:  "flag-token",
	}
	tests := []struct {
		name  string
		env   map[string]string
		flags Flags
		want  picked
	}{
		{
			name:  "file over defaults",
			flags: Flags{ConfigPath: path},
			want: picked{
				StateDir: filepath.Join(dir, "file-state"), Addr: "127.0.0.1:1111", TokenFile: filepath.Join(dir, "file-token"),
				Roots: []Root{{Path: filepath.Join(dir, "file-root")}}, Enabled: []string{"files"},
			},
		},
		{
			name:  "env over file",
			env:   env,
			flags: Flags{ConfigPath: path},
			want: picked{
				StateDir: filepath.Join(dir, "env-state"), Addr: "127.0.0.1:2222", TokenFile: filepath.Join(dir, "env-token"),
				Roots:   []Root{{Path: filepath.Join(dir, "env-rw")}, {Path: filepath.Join(dir, "env-ro"), ReadOnly: true}},
				Enabled: []string{"system", "perf"}, ReadOnly: true,
			},
		},
		{
			name:  "flags over env",
			env:   env,
			flags: flags,
			want: picked{
				StateDir: filepath.Join(dir, "flag-state"), Addr: "127.0.0.1:3333", TokenFile: filepath.Join(dir, "flag-token"),
				Roots:   []Root{{Path: filepath.Join(dir, "flag-a"), ReadOnly: true}, {Path: filepath.Join(dir, "flag-b")}},
				Enabled: []string{"proc"}, ReadOnly: false,
			},
		},
		{
			name: "config path from the environment",
			env:  map[string]string{EnvConfig: path, EnvReadOnly: "1"},
			want: picked{
				StateDir: filepath.Join(dir, "file-state"), Addr: "127.0.0.1:1111", TokenFile: filepath.Join(dir, "file-token"),
				Roots: []Root{{Path: filepath.Join(dir, "file-root")}}, Enabled: []string{"files"}, ReadOnly: true,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(tc.flags, envMap(tc.env), dir)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(pick(c), tc.want); diff != "" {
				t.Errorf("Load (-got +want):\n%s", diff)
			}
		})
	}
}

func TestParseRootFlag(t *testing.T) {
	tests := []struct {
		in      string
		want    Root
		wantErr bool
	}{
		{"/srv", Root{Path: "/srv"}, false},
		{"/srv:ro", Root{Path: "/srv", ReadOnly: true}, false},
		{"/srv:rw", Root{Path: "/srv"}, false},
		{"rel/dir:ro", Root{Path: "rel/dir", ReadOnly: true}, false},
		{"/a:b", Root{Path: "/a:b"}, false},
		{"/srv:RO", Root{Path: "/srv:RO"}, false}, // only the exact suffix is a mode
		{":ro", Root{}, true},
		{"", Root{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parseRootFlag(tc.in)
			if (err != nil) != tc.wantErr {
				t.Fatalf("parseRootFlag(%q) error = %v, wantErr %v", tc.in, err, tc.wantErr)
			}
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("parseRootFlag(%q) (-got +want):\n%s", tc.in, diff)
			}
		})
	}
}

// TestRootsResolved checks that symlinks are resolved, paths cleaned and
// duplicates merged with the stricter setting winning.
func TestRootsResolved(t *testing.T) {
	dir := tempDir(t)
	mkdirs(t, dir, "real/sub", "other")
	if err := os.Symlink(filepath.Join(dir, "real"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	flags := Flags{Roots: []string{"real", "link:ro", "real/sub/../", "other/", "./other"}}
	c, err := Load(flags, envMap(nil), dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Root{{Path: filepath.Join(dir, "real"), ReadOnly: true}, {Path: filepath.Join(dir, "other")}}
	if diff := cmp.Diff(c.Roots, want); diff != "" {
		t.Errorf("roots (-got +want):\n%s", diff)
	}
}

func TestEnvErrors(t *testing.T) {
	dir := tempDir(t)
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"read only", map[string]string{EnvReadOnly: "maybe"}, `HOSTMCP_READ_ONLY="maybe": want 1, true, 0 or false`},
		{"toolsets", map[string]string{EnvToolsets: "perf,prof"}, `toolsets.enabled: unknown toolset "prof"; valid: core,`},
		{"missing root", map[string]string{EnvReadOnlyRoots: "gone"}, `roots[0].path "` + filepath.Join(dir, "gone") + `": does not exist`},
		{"addr", map[string]string{EnvHTTPAddr: "8765"}, `http.addr "8765": `},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(Flags{}, envMap(tc.env), dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}
