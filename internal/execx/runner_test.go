package execx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNewResolvesOnlyInSafeDirs(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("hostmcp-fake-exec", 0o755)
	write("hostmcp-fake-noexec", 0o644)
	if err := os.Mkdir(filepath.Join(dir, "hostmcp-fake-dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Neither the caller's PATH nor the working directory may be searched.
	t.Setenv("PATH", dir)
	t.Chdir(dir)

	tests := []struct {
		name  string
		extra []string
		prog  string
		want  string // "" for unavailable
	}{
		{name: "PATH and cwd ignored", prog: "hostmcp-fake-exec"},
		{name: "extra path searched", extra: []string{dir}, prog: "hostmcp-fake-exec", want: filepath.Join(dir, "hostmcp-fake-exec")},
		{name: "not executable", extra: []string{dir}, prog: "hostmcp-fake-noexec"},
		{name: "directory", extra: []string{dir}, prog: "hostmcp-fake-dir"},
		{name: "missing", extra: []string{dir}, prog: "hostmcp-no-such-program"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := New(&Options{Allowed: []string{tc.prog}, ExtraPath: tc.extra})
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			got, ok := r.Path(tc.prog)
			if got != tc.want || ok != (tc.want != "") || r.Available(tc.prog) != ok {
				t.Errorf("Path(%q) = %q, %v; want %q", tc.prog, got, ok, tc.want)
			}
		})
	}
}

func TestNewFindsSystemProgram(t *testing.T) {
	r, err := New(&Options{Allowed: []string{"uname"}})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	p, ok := r.Path("uname")
	if !ok {
		t.Skip("uname is not installed in the safe directories")
	}
	if dir := filepath.Dir(p); !strings.Contains(":"+safeDirs+":", ":"+dir+":") {
		t.Errorf("uname resolved to %s, outside the safe directories", p)
	}
	res, err := r.Run(context.Background(), Cmd{Name: "uname", Args: []string{"-s"}})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got, want := strings.TrimSpace(string(res.Stdout)), "Linux"; got != want {
		t.Errorf("uname -s printed %q, want %q", got, want)
	}
}

func TestNewRejectsMalformedOptions(t *testing.T) {
	tests := []struct {
		name string
		opts Options
	}{
		{name: "relative extra path", opts: Options{ExtraPath: []string{"bin"}}},
		{name: "name with slash", opts: Options{Allowed: []string{"/bin/sh"}}},
		{name: "empty name", opts: Options{Allowed: []string{""}}},
		{name: "dot dot", opts: Options{Allowed: []string{".."}}},
		{name: "relative home", opts: Options{Home: "home"}},
		{name: "relative temp dir", opts: Options{TempDir: "tmp"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := New(&tc.opts); err == nil {
				t.Errorf("New(%+v) succeeded, want an error", tc.opts)
			}
		})
	}
}

func TestRunRefusesUnlistedAndMissing(t *testing.T) {
	r, err := New(&Options{Allowed: []string{"hostmcp-no-such-program", "sh"}})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	for _, name := range []string{"rm", "/bin/sh", "../sh", ""} {
		_, err := r.Run(context.Background(), Cmd{Name: name})
		var notAllowed *NotAllowedError
		if !errors.As(err, &notAllowed) || notAllowed.Name != name {
			t.Errorf("Run(%q) error = %v, want a NotAllowedError for it", name, err)
		}
	}
	_, err = r.Run(context.Background(), Cmd{Name: "hostmcp-no-such-program"})
	if !errors.Is(err, ErrNotInstalled) {
		t.Errorf("Run(missing) error = %v, want ErrNotInstalled", err)
	}
}

// A child's environment is the scrubbed base and what the command adds:
// nothing of the server's. Its HOME and TMPDIR are the runner's private
// directories when it has them (never "/", where perf as root used to put
// its build-id cache), and absent otherwise.
func TestRunScrubsEnvironment(t *testing.T) {
	t.Setenv("EXECX_SECRET", "must-not-leak")
	home, tmp := t.TempDir(), t.TempDir()
	dir, name := helperPath()
	for _, tc := range []struct {
		name string
		opts Options
		dirs []string
	}{
		{"private directories", Options{Home: home, TempDir: tmp}, []string{"HOME=" + home, "TMPDIR=" + tmp}},
		{"none", Options{}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Allowed, tc.opts.ExtraPath = []string{name}, []string{dir}
			r, err := New(&tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			cmd := helperCmd(name, "env")
			cmd.Env = append(cmd.Env, "EXTRA=1")
			res, err := r.Run(context.Background(), cmd)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			got := strings.Split(strings.TrimSpace(string(res.Stdout)), "\n")
			want := append([]string{
				helperEnv + "=env",
				"EXTRA=1",
				"GORACE=atexit_sleep_ms=0",
				"LANG=C.UTF-8",
				"LC_ALL=C.UTF-8",
				"PATH=" + r.path,
			}, tc.dirs...)
			slices.Sort(want)
			if diff := cmp.Diff(got, want); diff != "" {
				t.Errorf("child environment (-got +want):\n%s", diff)
			}
			wantTmp := tc.opts.TempDir
			if wantTmp == "" {
				wantTmp = os.TempDir()
			}
			if r.TempDir() != wantTmp {
				t.Errorf("TempDir() = %q, want %q", r.TempDir(), wantTmp)
			}
		})
	}
}

func TestRunRejectsEnvironment(t *testing.T) {
	r, name := newHelperRunner(t, 0)
	for _, kv := range []string{"PATH=/tmp", "LD_PRELOAD=/tmp/x.so", "NOEQUALS", "=1"} {
		t.Run(kv, func(t *testing.T) {
			cmd := helperCmd(name, "env")
			cmd.Env = append(cmd.Env, kv)
			if _, err := r.Run(context.Background(), cmd); err == nil {
				t.Errorf("Run with env %q succeeded, want an error", kv)
			}
		})
	}
}

func TestRunDirAndStdin(t *testing.T) {
	r, name := newHelperRunner(t, 0)
	dir := t.TempDir()
	tests := []struct {
		name string
		cmd  Cmd
		want string
	}{
		{name: "default dir is root", cmd: helperCmd(name, "pwd"), want: "/"},
		{name: "explicit dir", cmd: Cmd{Name: name, Dir: dir, Env: helperEnvFor("pwd")}, want: dir},
		{name: "stdin", cmd: Cmd{Name: name, Stdin: strings.NewReader("fed\n"), Env: helperEnvFor("cat")}, want: "fed\n"},
		{name: "no stdin", cmd: helperCmd(name, "cat"), want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := r.Run(context.Background(), tc.cmd)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if got := string(res.Stdout); got != tc.want {
				t.Errorf("stdout = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRunExitStatus(t *testing.T) {
	r, name := newHelperRunner(t, 0)
	tests := []struct {
		name string
		cmd  Cmd
		want Result
	}{
		{name: "success", cmd: helperCmd(name, "exit", "0"),
			want: Result{Stdout: []byte("out\n"), Stderr: []byte("err\n"), StdoutBytes: 4, StderrBytes: 4}},
		{name: "failure", cmd: helperCmd(name, "exit", "3"),
			want: Result{ExitCode: 3, Stdout: []byte("out\n"), Stderr: []byte("err\n"), StdoutBytes: 4, StderrBytes: 4}},
		{name: "255", cmd: helperCmd(name, "exit", "255"),
			want: Result{ExitCode: 255, Stdout: []byte("out\n"), Stderr: []byte("err\n"), StdoutBytes: 4, StderrBytes: 4}},
		{name: "killed", cmd: helperCmd(name, "selfkill"),
			want: Result{ExitCode: -1, Signaled: true, Signal: syscall.SIGKILL}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := r.Run(context.Background(), tc.cmd)
			if err != nil {
				t.Fatalf("Run: %v (a non-zero exit is not an error)", err)
			}
			if got.PID <= 0 {
				t.Errorf("pid %d", got.PID)
			}
			got.Duration, got.PID = 0, 0
			if diff := cmp.Diff(got, tc.want, cmpBytesAsText); diff != "" {
				t.Errorf("result (-got +want):\n%s", diff)
			}
		})
	}
}

// cmpBytesAsText shows byte slices as text and treats nil as empty.
var cmpBytesAsText = cmp.Transformer("text", func(b []byte) string { return string(b) })
