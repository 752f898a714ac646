package repl

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// startPython starts a python3 session at its prompt.
func startPython(t *testing.T, s *Set, args ...string) startOut {
	t.Helper()
	testutil.RequireBinary(t, "python3")
	st := mustRun[startOut](t, s.start(), startIn{Command: append([]string{"python3"}, args...)})
	if st.State == stateRunning && !st.Prompt {
		// proc_start answers once the output has been quiet for a moment,
		// which a loaded machine can make python be before its prompt:
		// read on to it, as an agent would.
		rd := mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "offset": 0, "timeout_ms": 20000, "until_quiet_ms": 10000})
		st.chunk = rd.chunk
	}
	if st.State != stateRunning || !st.Prompt || !strings.HasSuffix(st.Output, ">>> ") {
		t.Fatalf("python3 did not reach its prompt: %+v", st)
	}
	return st
}

// eval sends one line and reads until the next prompt.
func eval(t *testing.T, s *Set, id, line string) string {
	t.Helper()
	sent := mustRun[sendOut](t, s.send(), sendIn{ProcID: id, Input: line})
	rd := mustRun[readOut](t, s.read(), map[string]any{"proc_id": id, "offset": sent.Offset, "timeout_ms": 20000, "until_quiet_ms": 10000})
	if !rd.Prompt {
		t.Fatalf("%q: no prompt after it: %+v", line, rd)
	}
	return rd.Output
}

// A python3 session under a PTY evaluates 2+2, and proc_stop ends it.
func TestPythonEvaluates(t *testing.T) {
	s := newTestSet(t, nil)
	st := startPython(t, s)
	if got := eval(t, s, st.ProcID, "2+2"); got != "2+2\n4\n>>> " {
		t.Fatalf("2+2 gave %q", got)
	}
	// A multi-line statement, typed as one input with its newlines.
	if got := eval(t, s, st.ProcID, "for i in range(3):\n  print(i*10)\n"); !strings.Contains(got, "0\n10\n20\n>>> ") {
		t.Fatalf("the loop gave %q", got)
	}
	stop := mustRun[stopOut](t, s.stopTool(), stopIn{ProcID: st.ProcID})
	if stop.State != stateExited || stop.ExitCode == nil || stop.Escalated {
		t.Fatalf("after proc_stop: %+v", stop)
	}
	if !gone(st.PID, 5*time.Second) {
		t.Fatalf("pid %d still running after proc_stop", st.PID)
	}
	// The finished session keeps its state and output.
	rd := mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "offset": 0, "timeout_ms": 0})
	if rd.State != stateExited || !strings.Contains(rd.Output, "Python 3") || rd.StopReason != "proc_stop" {
		t.Fatalf("read after stop: %+v", rd)
	}
	if _, terr := run[sendOut](t, s.send(), "test", sendIn{ProcID: st.ProcID, Input: "1"}); terr == nil || terr.Code != tool.ExecutionFailed {
		t.Fatalf("send to an exited session: %v", terr)
	}
}

// ctrl-c interrupts a running loop and the session survives it.
func TestCtrlCInterrupts(t *testing.T) {
	s := newTestSet(t, nil)
	st := startPython(t, s)
	sent := mustRun[sendOut](t, s.send(), sendIn{ProcID: st.ProcID, Input: "while True: pass\n"})
	// The loop is running: no prompt comes back.
	rd := mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "offset": sent.Offset, "timeout_ms": 500})
	if rd.Prompt {
		t.Fatalf("the loop returned at once: %q", rd.Output)
	}
	sent = mustRun[sendOut](t, s.send(), sendIn{ProcID: st.ProcID, Keys: []string{"ctrl-c"}})
	rd = mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "offset": sent.Offset, "timeout_ms": 20000, "until_quiet_ms": 10000})
	if !strings.Contains(rd.Output, "KeyboardInterrupt") || !rd.Prompt || rd.State != stateRunning {
		t.Fatalf("after ctrl-c: %+v", rd)
	}
	if got := eval(t, s, st.ProcID, "6*7"); !strings.Contains(got, "\n42\n") {
		t.Fatalf("after the interrupt 6*7 gave %q", got)
	}
}

// ctrl-d ends the REPL with its own exit code; exit codes are reported.
func TestExitCodes(t *testing.T) {
	s := newTestSet(t, nil)
	st := startPython(t, s)
	mustRun[sendOut](t, s.send(), sendIn{ProcID: st.ProcID, Input: "import sys; sys.exit(3)"})
	rd := mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "timeout_ms": 20000})
	for i := 0; rd.State != stateExited && i < 20; i++ {
		rd = mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "timeout_ms": 1000})
	}
	if rd.State != stateExited || rd.ExitCode == nil || *rd.ExitCode != 3 {
		t.Fatalf("after sys.exit(3): %+v", rd)
	}
	st = startPython(t, s)
	mustRun[sendOut](t, s.send(), sendIn{ProcID: st.ProcID, Keys: []string{"ctrl-d"}})
	if !gone(st.PID, 10*time.Second) {
		t.Fatal("python3 did not exit on ctrl-d")
	}
}

// A program ignoring SIGTERM is killed after the grace, with the children
// it started; a stopped session's group leaves nothing behind.
func TestStopEscalates(t *testing.T) {
	s := newTestSet(t, nil)
	st := startPython(t, s)
	eval(t, s, st.ProcID, "import signal, subprocess; signal.signal(signal.SIGTERM, signal.SIG_IGN); c = subprocess.Popen(['sleep', '300']); print('child', c.pid)")
	// The pid python prints is its namespace's; the host's is found from outside.
	kids, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", st.PID, st.PID))
	var child int
	if _, err2 := fmt.Sscanf(string(kids), "%d", &child); err != nil || err2 != nil {
		t.Fatalf("no child of python3 %d: %q %v %v", st.PID, kids, err, err2)
	}
	stop := mustRun[stopOut](t, s.stopTool(), map[string]any{"proc_id": st.ProcID, "grace_ms": 300})
	if !stop.Escalated || stop.Signal != "SIGKILL" {
		t.Fatalf("want escalation to SIGKILL: %+v", stop)
	}
	if !gone(child, 5*time.Second) {
		t.Fatalf("the session's child %d survived proc_stop", child)
	}
}

// Refusals: programs off the allowlist, shells, bad cwd, env and ids.
func TestRefusals(t *testing.T) {
	outside := t.TempDir()
	s := newTestSet(t, nil)
	root := s.roots.Roots()[0].Path
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "file"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		in   any
		code tool.Code
	}{
		{"shell", startIn{Command: []string{"bash"}}, tool.CommandNotAllowed},
		{"path to a shell", startIn{Command: []string{"/bin/sh", "-c", "id"}}, tool.CommandNotAllowed},
		{"relative path", startIn{Command: []string{"./python3"}}, tool.CommandNotAllowed},
		{"empty", map[string]any{"command": []string{}}, tool.InvalidArgument},
		{"cwd outside", startIn{Command: []string{"python3"}, Cwd: outside}, tool.InvalidPath},
		{"cwd through a symlink", startIn{Command: []string{"python3"}, Cwd: "escape"}, tool.InvalidPath},
		{"cwd dotdot", startIn{Command: []string{"python3"}, Cwd: "../.."}, tool.InvalidPath},
		{"cwd missing", startIn{Command: []string{"python3"}, Cwd: "nope"}, tool.NotFound},
		{"cwd a file", startIn{Command: []string{"python3"}, Cwd: "file"}, tool.NotADirectory},
		{"LD_PRELOAD", startIn{Command: []string{"python3"}, Env: map[string]string{"LD_PRELOAD": "/x.so"}}, tool.InvalidArgument},
		{"PATH", startIn{Command: []string{"python3"}, Env: map[string]string{"PATH": "/tmp"}}, tool.InvalidArgument},
		{"bad env name", startIn{Command: []string{"python3"}, Env: map[string]string{"A=B": "c"}}, tool.InvalidArgument},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, terr := run[startOut](t, s.start(), "test", tc.in)
			if terr == nil || terr.Code != tc.code {
				t.Fatalf("want %s, got %v", tc.code, terr)
			}
			if tc.code == tool.InvalidPath && strings.Contains(terr.Message, outside) && !strings.Contains(fmt.Sprint(tc.in), outside) {
				t.Errorf("the message reveals the resolved path: %s", terr.Message)
			}
		})
	}
	for _, d := range []*tool.Def{s.send(), s.read(), s.stopTool()} {
		if _, terr := run[struct{}](t, d, "test", map[string]any{"proc_id": "r_000000000000"}); terr == nil || terr.Code != tool.ProcessNotFound {
			t.Errorf("%s of an unknown session: %v", d.Spec.Name, terr)
		}
	}
	if len(s.reg.list()) != 0 {
		t.Errorf("refused starts left sessions: %d", len(s.reg.list()))
	}
}

// A shell runs only when the operator allowlists it; then it runs in the
// requested directory, with the caller's variables, without the server's.
func TestConfiguredProgram(t *testing.T) {
	t.Setenv("HOSTMCP_REPL_SECRET", "server-only")
	s := newTestSet(t, func(c *config.ReplConf) { c.Programs = []string{"sh"} })
	sub := filepath.Join(s.roots.Roots()[0].Path, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	st := mustRun[startOut](t, s.start(), startIn{Command: []string{"sh"}, Cwd: "sub", Env: map[string]string{"GREETING": "hi"}})
	if st.Cwd != sub {
		t.Fatalf("cwd %q, want %q", st.Cwd, sub)
	}
	sent := mustRun[sendOut](t, s.send(), sendIn{ProcID: st.ProcID, Input: `echo "[$GREETING][$HOSTMCP_REPL_SECRET][$(pwd)]"`})
	rd := mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "offset": sent.Offset, "timeout_ms": 20000, "until_quiet_ms": 10000})
	if want := "[hi][][" + sub + "]"; !strings.Contains(rd.Output, want) {
		t.Fatalf("got %q, want it to contain %q", rd.Output, want)
	}
	environ, err := os.ReadFile("/proc/" + strconv.Itoa(st.PID) + "/environ")
	if err != nil || strings.Contains(string(environ), "HOSTMCP_REPL_SECRET") {
		t.Errorf("the server's environment reached the session: %v", err)
	}
}

// A session inherits no descriptor of the server: python3 at its prompt
// holds only its terminal as 0, 1 and 2.
func TestNoInheritedDescriptors(t *testing.T) {
	s := newTestSet(t, nil)
	st := startPython(t, s)
	dir := "/proc/" + strconv.Itoa(st.PID) + "/fd"
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var fds []string
	for _, e := range ents {
		target, _ := os.Readlink(filepath.Join(dir, e.Name()))
		fds = append(fds, e.Name()+"->"+target)
		if !strings.HasPrefix(target, "/dev/pts/") {
			t.Errorf("fd %s of the session is %s, not its terminal", e.Name(), target)
		}
	}
	if len(fds) != 3 {
		t.Errorf("the session holds %v, want only 0, 1 and 2", fds)
	}
}

// proc_start reports the program's PID, not one of init's short-lived
// children (Go's pidfd probe, the fork before exec): repeated, since
// catching one of those is a matter of timing.
func TestStartReportsProgramPID(t *testing.T) {
	s := newTestSet(t, func(c *config.ReplConf) { c.Programs = []string{"sh"} })
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	if sh, err = filepath.EvalSymlinks(sh); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		st := mustRun[startOut](t, s.start(), startIn{Command: []string{"sh"}})
		// exe, not comm: the kernel switches exe first when a fork execs.
		exe, err := os.Readlink("/proc/" + strconv.Itoa(st.PID) + "/exe")
		if err != nil || exe != sh {
			t.Fatalf("pid %d runs %q (%v), want %s", st.PID, exe, err, sh)
		}
		mustRun[stopOut](t, s.stopTool(), map[string]any{"proc_id": st.ProcID, "signal": "KILL"})
	}
}

// startPython reaches the prompt even when python pauses before it for
// longer than proc_start's quiet window, as a loaded machine can make it:
// the answer then ends before the prompt, and the helper reads on to it.
// It failed CI once on the banner's first line alone.
func TestStartPythonReadsOnPastAPause(t *testing.T) {
	s := newTestSet(t, nil)
	script := filepath.Join(s.roots.Roots()[0].Path, "slow.py")
	if err := os.WriteFile(script, []byte("import time\nprint('slow start', flush=True)\ntime.sleep(1)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	st := startPython(t, s, "-i", script)
	if !strings.Contains(st.Output, "slow start") {
		t.Errorf("output %q does not hold what python printed before its pause", st.Output)
	}
}
