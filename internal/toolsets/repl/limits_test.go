package repl

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Limits are counted per client session and in total, over running
// sessions only.
func TestSessionLimits(t *testing.T) {
	testutil.RequireBinary(t, "python3")
	s := newTestSet(t, func(c *config.ReplConf) { c.MaxSessionsPerClient, c.MaxSessions = 1, 2 })
	py := startIn{Command: []string{"python3", "-q"}}
	a, terr := run[startOut](t, s.start(), "a", py)
	if terr != nil {
		t.Fatal(terr)
	}
	if _, terr := run[startOut](t, s.start(), "a", py); terr == nil || terr.Code != tool.LimitReached {
		t.Fatalf("second session of one client: %v", terr)
	}
	if _, terr := run[startOut](t, s.start(), "b", py); terr != nil {
		t.Fatalf("another client: %v", terr)
	}
	if _, terr := run[startOut](t, s.start(), "c", py); terr == nil || terr.Code != tool.LimitReached || !strings.Contains(terr.Message, "repl.max_sessions") {
		t.Fatalf("over the total: %v", terr)
	}
	// A finished session frees its slot.
	mustRun[stopOut](t, s.stopTool(), stopIn{ProcID: a.ProcID, Signal: "KILL"})
	if _, terr := run[startOut](t, s.start(), "a", py); terr != nil {
		t.Fatalf("after stopping the first: %v", terr)
	}
	list := mustRun[sessionsOut](t, s.sessions(), struct{}{})
	if len(list.Sessions) != 3 || list.Running != 2 || list.MaxSessions != 2 || len(list.Programs) == 0 {
		t.Fatalf("proc_sessions: %+v", list)
	}
	if got := list.Args["python3"]; !slices.Contains(got, "-q") || slices.Contains(got, "-c") {
		t.Errorf("proc_sessions lists python3's arguments as %q", got)
	}
}

// The idle timeout stops a session nobody uses, and retention forgets it.
func TestIdleTimeoutAndRetention(t *testing.T) {
	testutil.RequireBinary(t, "python3")
	s := newTestSet(t, func(c *config.ReplConf) {
		c.IdleTimeout = config.Duration{Duration: time.Second}
		c.Retention = config.Duration{Duration: time.Second}
	})
	st := mustRun[startOut](t, s.start(), startIn{Command: []string{"python3", "-q"}})
	if !gone(st.PID, 30*time.Second) {
		t.Fatal("the idle session was not stopped")
	}
	sess, err := s.reg.get(st.ProcID)
	if err == nil {
		<-sess.done
		sess.mu.Lock()
		reason := sess.stopReason
		sess.mu.Unlock()
		if !strings.Contains(reason, "idle") {
			t.Errorf("stop reason %q", reason)
		}
	}
	for deadline := time.Now().Add(30 * time.Second); len(s.reg.list()) > 0; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the finished session was never forgotten")
		}
	}
}

// Output beyond the buffer is dropped and reported; tail and raw reads.
func TestBufferOverflow(t *testing.T) {
	s := newTestSet(t, func(c *config.ReplConf) { c.BufferBytes = 4096 })
	st := startPython(t, s)
	eval(t, s, st.ProcID, "print('\\x1b[31m' + 'x'*20000 + '\\x1b[0m')")
	rd := mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "offset": 0, "timeout_ms": 0})
	if rd.DroppedBytes < 16000 || rd.Offset != rd.DroppedBytes || !strings.HasSuffix(rd.Output, "xxx\n>>> ") {
		t.Fatalf("overflowed read: dropped %d offset %d output %.40q...", rd.DroppedBytes, rd.Offset, rd.Output)
	}
	raw := mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "tail": 20, "strip_ansi": false})
	if !strings.Contains(raw.Output, "\x1b[0m\r\n>>> ") || raw.NextOffset-raw.Offset > 20 {
		t.Fatalf("raw tail: %q", raw.Output)
	}
}

// Without a PTY, output and errors arrive through one pipe and ctrl-c is
// delivered as SIGINT.
func TestPipeMode(t *testing.T) {
	testutil.RequireBinary(t, "python3")
	s := newTestSet(t, nil)
	no := false
	st := mustRun[startOut](t, s.start(), startIn{Command: []string{"python3", "-i", "-q", "-u"}, PTY: &no})
	if st.PTY || !st.Prompt {
		t.Fatalf("pipe session: %+v", st)
	}
	if got := eval(t, s, st.ProcID, "import sys; print(2+2); print('oops', file=sys.stderr)"); !strings.Contains(got, "4\noops\n") {
		t.Fatalf("got %q", got)
	}
	mustRun[sendOut](t, s.send(), sendIn{ProcID: st.ProcID, Input: "import time; time.sleep(60)"})
	sent := mustRun[sendOut](t, s.send(), sendIn{ProcID: st.ProcID, Keys: []string{"ctrl-c"}})
	rd := mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "offset": sent.Offset, "timeout_ms": 20000, "until_quiet_ms": 10000})
	if !strings.Contains(rd.Output, "KeyboardInterrupt") {
		t.Fatalf("after ctrl-c: %q", rd.Output)
	}
}

// A session cannot reach into the server: in its own PID namespace with
// its own /proc it cannot even name the server's process (so cannot read
// its environment, memory or descriptors), it cannot unmount that /proc to
// see the host's, and it runs without CAP_SYS_PTRACE or CAP_SYS_ADMIN.
func TestSessionCannotReadServer(t *testing.T) {
	s := newTestSet(t, nil)
	st := startPython(t, s)
	self := strconv.Itoa(os.Getpid())
	for _, f := range []string{"environ", "mem", "fd"} {
		code := "import os\ntry:\n  p = '/proc/" + self + "/" + f + "'\n  os.listdir(p) if p.endswith('fd') else open(p, 'rb').read(1)\n  print('READ', p)\nexcept (PermissionError, FileNotFoundError):\n  print('DENIED')\n"
		if got := eval(t, s, st.ProcID, code); !strings.Contains(got, "\nDENIED\n") {
			t.Errorf("%s: %q", f, got)
		}
	}
	// One line: eval returns at the first prompt.
	code := "import ctypes, os; libc = ctypes.CDLL(None, use_errno=True); print('UMOUNT', libc.umount2(b'/proc', 2), ctypes.get_errno()); print('PIDS', sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))"
	got := eval(t, s, st.ProcID, code)
	if !strings.Contains(got, "UMOUNT -1 1\n") { // EPERM
		t.Errorf("umount of the private /proc: %q", got)
	}
	if !regexp.MustCompile(`PIDS \[1, \d+\]\n`).MatchString(got) { // init and python, nothing of the host
		t.Errorf("processes visible to the session: %q", got)
	}
	for name, caps := range capSets(t, strconv.Itoa(st.PID)) {
		for _, c := range []uint{19, 21} { // CAP_SYS_PTRACE, CAP_SYS_ADMIN
			if caps&(1<<c) != 0 {
				t.Errorf("the session has capability %d in %s", c, name)
			}
		}
	}
}

// capSets reads a process's capability sets from its status file.
func capSets(t *testing.T, pid string) map[string]uint64 {
	t.Helper()
	status, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		t.Fatal(err)
	}
	sets := map[string]uint64{}
	for _, line := range strings.Split(string(status), "\n") {
		if name, v, ok := strings.Cut(line, ":\t"); ok && (name == "CapEff" || name == "CapPrm" || name == "CapBnd") {
			sets[name], _ = strconv.ParseUint(strings.TrimSpace(v), 16, 64)
		}
	}
	return sets
}
