package execx

import (
	"bytes"
	"context"
	"fmt"
	"golang.org/x/sys/unix"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// helperEnv selects what the re-executed test binary does instead of
// running tests. The scrubbed environment lets it through because every
// test passes it in Cmd.Env.
const helperEnv = "EXECX_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// helper is the child side of the tests: small behaviours real programs
// have (ignoring SIGTERM, forking, flooding stdout).
func helper(mode string, args []string) int {
	switch mode {
	case "exit": // exit with args[0] after a line on each stream
		fmt.Println("out")
		fmt.Fprintln(os.Stderr, "err")
		code, _ := strconv.Atoi(args[0])
		return code
	case "selfkill":
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	case "sleep":
	case "ignoreterm":
		signal.Ignore(syscall.SIGTERM)
		fmt.Println("ready")
	case "trap": // exit cleanly on SIGINT, as perf and bpftrace do
		c := make(chan os.Signal, 1)
		signal.Notify(c, syscall.SIGINT)
		fmt.Println("ready")
		<-c
		fmt.Println("interrupted")
		return 0
	case "orphan", "family", "escape": // fork a sleeper sharing stdout; only family stays
		gc, err := spawnSleeper(mode == "escape")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Println(gc)
		if mode != "family" {
			return 0
		}
	case "flood": // write args[0] bytes
		n, _ := strconv.ParseInt(args[0], 10, 64)
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for ; n > 0; n -= int64(len(chunk)) {
			if _, err := os.Stdout.Write(chunk[:min(n, int64(len(chunk)))]); err != nil {
				return 2
			}
		}
		return 0
	case "env":
		env := os.Environ()
		slices.Sort(env)
		for _, kv := range env {
			fmt.Println(kv)
		}
		return 0
	case "pipesize": // the capacity of the pipe that is our stdout
		n, err := unix.FcntlInt(1, unix.F_GETPIPE_SZ, 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Print(n)
		return 0
	case "pwd":
		wd, _ := os.Getwd()
		fmt.Print(wd)
		return 0
	case "cat":
		_, _ = io.Copy(os.Stdout, os.Stdin)
		return 0
	case "lines":
		fmt.Print("one\ntwo\n\nlast")
		return 0
	case "records":
		fmt.Print("./a\nb\x00./c\x00\x00./\n\x00last\n")
		return 0
	case "truncate": // try every way to truncate args (truncate_helper_test.go)
		return helperTruncate(args)
	case "server": // a stand-in server: start a sleeper through a Runner and wait to be killed
		return helperServer()
	default:
		fmt.Fprintln(os.Stderr, "unknown helper mode", mode)
		return 2
	}
	time.Sleep(time.Hour)
	return 0
}

// spawnSleeper starts a grandchild holding the caller's stdout, in the
// caller's process group unless it escapes into a session of its own, and
// returns its pid.
func spawnSleeper(escape bool) (int, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, err
	}
	cmd := exec.Command(exe)
	cmd.Env = helperEnvFor("sleep")
	cmd.Stdout = os.Stdout
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: escape}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	return cmd.Process.Pid, nil
}

func helperServer() int {
	dir, name := helperPath()
	r, err := New(&Options{Allowed: []string{name}, ExtraPath: []string{dir}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	p, err := r.Start(context.Background(), Cmd{Name: name, Env: helperEnvFor("sleep")})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Println(p.Pid())
	time.Sleep(time.Hour)
	return 0
}

// helperPath is the directory and name of the test binary, which the tests
// allowlist and run as their child.
func helperPath() (dir, name string) {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	return filepath.Dir(exe), filepath.Base(exe)
}

// newHelperRunner returns a Runner allowed to run only the test binary.
func newHelperRunner(t *testing.T, grace time.Duration) (*Runner, string) {
	t.Helper()
	dir, name := helperPath()
	r, err := New(&Options{Allowed: []string{name}, ExtraPath: []string{dir}, KillGrace: grace})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if !r.Available(name) {
		t.Fatalf("test binary %s not found in %s", name, dir)
	}
	return r, name
}

// helperCmd is a command that runs the test binary in mode.
func helperCmd(name, mode string, args ...string) Cmd {
	return Cmd{Name: name, Args: args, Env: helperEnvFor(mode)}
}

// helperEnvFor is the environment a helper child needs. Under -race the
// race runtime sleeps a second before a clean exit unless told not to.
func helperEnvFor(mode string) []string {
	return []string{helperEnv + "=" + mode, "GORACE=atexit_sleep_ms=0"}
}

// gone reports whether pid has exited: no such process, or a zombie that
// nobody has reaped yet (a container's init may never reap).
func gone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] == 'Z' || b[i+2] == 'X'
}

// waitGone polls gone for up to two seconds: a SIGKILLed process takes a
// moment to disappear.
func waitGone(pid int) bool {
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if gone(pid) {
			return true
		}
	}
	return false
}

// killLater makes sure a process a test caused to exist does not survive a
// failing test. It is only ever given pids the test itself started.
func killLater(t *testing.T, pid int) {
	t.Cleanup(func() {
		if !gone(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

// firstPid parses the pid a helper printed on its first stdout line.
func firstPid(t *testing.T, out []byte) int {
	t.Helper()
	line, _, _ := bytes.Cut(out, []byte("\n"))
	pid, err := strconv.Atoi(string(bytes.TrimSpace(line)))
	if err != nil || pid <= 1 {
		t.Fatalf("helper printed %q, want a pid", out)
	}
	return pid
}
