package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// doctor runs `hostmcp doctor` with args and extra environment, and returns
// its report and exit code.
func doctor(t *testing.T, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"doctor"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// A good configuration: exit 0, and the report says what is served and
// what can run.
func TestDoctorGood(t *testing.T) {
	e := newEnv(t, "")
	out, code := doctor(t, nil, "--state-dir", e.stateDir, "--root", e.root+":ro")
	if code != 0 {
		t.Fatalf("doctor on a good configuration: exit %d\n%s", code, out)
	}
	for _, want := range []string{"hostmcp doctor: ready to serve", e.root + ": read-only", "files: fs_read", "Landlock", "Load limits", "perf: ", "State directory"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// Misconfigurations: exit 1, each with what is wrong and its fix.
func TestDoctorBad(t *testing.T) {
	e := newEnv(t, "")
	worldReadable := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(worldReadable, []byte("0123456789abcdef0123"), 0o644); err != nil {
		t.Fatal(err)
	}
	badKey := filepath.Join(t.TempDir(), "bad.toml")
	if err := os.WriteFile(badKey, []byte("[limits]\nmax_timout = \"1m\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		env, args []string
		want, fix string
	}{
		{"unknown key", nil, []string{"--config", badKey}, `unknown key "limits.max_timout"`, "hostmcp.example.toml"},
		{"no token beyond loopback", []string{"HOSTMCP_TOKEN="}, []string{"--http", "0.0.0.0:8765"}, "without a token", "bind 127.0.0.1"},
		{"token file others can read", nil, []string{"--http", "127.0.0.1:8765", "--token-file", worldReadable}, "mode 0644", "only its owner"},
		{"a root that does not exist", nil, []string{"--root", filepath.Join(e.root, "missing")}, "does not exist", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(e.args("doctor")[1:], tc.args...)
			out, code := doctor(t, tc.env, args...)
			if code != 1 || !strings.Contains(out, tc.want) || !strings.Contains(out, "fix: ") || !strings.Contains(out, tc.fix) {
				t.Errorf("want exit 1 naming %q with fix ~ %q; exit %d:\n%s", tc.want, tc.fix, code, out)
			}
		})
	}
}

// A root configured read-write whose file system is mounted read-only
// (as ProtectSystem=strict leaves everything not in ReadWritePaths) is a
// misconfiguration the doctor names, with the drop-in that fixes it.
func TestDoctorReadWriteRootOnReadOnlyMount(t *testing.T) {
	testutil.RequireRoot(t)
	e := newEnv(t, "")
	ro := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(ro, 0o755); err != nil {
		t.Fatal(err)
	}
	testutil.BindMount(t, ro, ro)
	if err := unix.Mount("", ro, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY, ""); err != nil {
		t.Fatalf("remounting %s read-only: %v", ro, err)
	}
	out, code := doctor(t, nil, append(e.args("doctor")[1:], "--root", ro)...)
	if code != 1 || !strings.Contains(out, "mounted read-only") || !strings.Contains(out, "ReadWritePaths="+ro) {
		t.Errorf("want exit 1 with the ReadWritePaths fix; exit %d:\n%s", code, out)
	}
	if out, code := doctor(t, nil, append(e.args("doctor")[1:], "--root", ro+":ro")...); code != 0 {
		t.Errorf("the same root read-only: exit %d:\n%s", code, out)
	}
}
