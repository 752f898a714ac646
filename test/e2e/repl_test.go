package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// A python3 session through the real binary over stdio evaluates 2+2, and
// when the server is killed with SIGKILL (no chance to clean up) nothing it
// started is left: not the session's init, not python3, not a process
// python3 started in a session of its own, out of reach of the terminal's
// hangup and of the process group.
func TestSessionsDieWithKilledServer(t *testing.T) {
	testutil.RequireBinary(t, "python3")
	ctx := testCtx(t)
	e := newEnv(t, "")
	cmd := exec.Command(binary, e.args("serve")...)
	cmd.Stderr = &testLog{t: t}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	tools := listTools(t, ctx, cs)

	env, _ := call(t, ctx, cs, tools, "proc_start", map[string]any{"command": []string{"python3", "-q"}})
	var st struct {
		ProcID string `json:"proc_id"`
		PID    int    `json:"pid"`
	}
	mustData(t, env, &st)
	env, _ = call(t, ctx, cs, tools, "proc_send", map[string]any{"proc_id": st.ProcID, "input": "import subprocess; c = subprocess.Popen(['sleep', '300'], start_new_session=True); 2+2"})
	mustData(t, env, &struct{}{})
	env, _ = call(t, ctx, cs, tools, "proc_read", map[string]any{"proc_id": st.ProcID, "timeout_ms": 10000, "until_quiet_ms": 5000})
	var rd struct {
		Output string `json:"output"`
	}
	mustData(t, env, &rd)
	if !strings.Contains(rd.Output, "\n4\n") {
		t.Fatalf("2+2 gave %q", rd.Output)
	}

	homeInStateDir(t, st.PID, e.stateDir)
	started := descendants(cmd.Process.Pid)
	if len(started) < 3 { // init, python3, sleep
		t.Fatalf("want the session's init, python3 and sleep under the server, found %v", started)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range started {
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(pid) {
			t.Errorf("pid %d outlived the killed server", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL) // ours: a descendant of the server this test started
		}
	}
}

// mustData fails the test on an error envelope and decodes its data.
func mustData(t *testing.T, env envelope, v any) {
	t.Helper()
	if !env.Success {
		t.Fatalf("the call failed: %+v", env.Error)
	}
	if err := json.Unmarshal(env.Data, v); err != nil {
		t.Fatalf("data: %v\n%s", err, env.Data)
	}
}

// homeInStateDir checks that the HOME of the session whose program is pid
// lies in the server's state directory, where the session's init mounts
// its private tmpfs: nothing a session has is made in the host's /tmp or
// anywhere else outside the state directory, so a server killed with
// SIGKILL leaves nothing behind there either.
func homeInStateDir(t *testing.T, pid int, stateDir string) {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		t.Fatalf("finding the session's HOME: %v", err)
	}
	for _, kv := range strings.Split(string(b), "\x00") {
		if home, ok := strings.CutPrefix(kv, "HOME="); ok {
			if !strings.HasPrefix(home, stateDir+"/") {
				t.Errorf("the session's HOME %s is outside the state directory %s", home, stateDir)
			}
			return
		}
	}
	t.Errorf("the session has no HOME")
}

// descendants lists every process under pid, depth first.
func descendants(pid int) []int {
	var out []int
	tasks, _ := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	for _, task := range tasks {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + task.Name() + "/children")
		for _, f := range strings.Fields(string(b)) {
			if child, err := strconv.Atoi(f); err == nil {
				out = append(out, child)
				out = append(out, descendants(child)...)
			}
		}
	}
	return out
}

// alive reports whether pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// Through the real binary, a python3 session run by a root server cannot
// read the server's state database or /etc/shadow, nor write beside its
// root, while it writes in its root; proc_start and proc_send are
// announced as destructive.
func TestSessionConfinedThroughBinary(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "python3")
	ctx := testCtx(t)
	e := newEnv(t, "")
	cs := e.connectStdio(t, ctx)
	tools := listTools(t, ctx, cs)
	for _, name := range []string{"proc_start", "proc_send"} {
		if a := tools[name].Annotations; a == nil || a.DestructiveHint == nil || !*a.DestructiveHint {
			t.Errorf("%s is not annotated destructive: %+v", name, a)
		}
	}
	env, _ := call(t, ctx, cs, tools, "proc_start", map[string]any{"command": []string{"python3", "-q"}})
	var st struct {
		ProcID string `json:"proc_id"`
	}
	mustData(t, env, &st)
	db := filepath.Join(e.stateDir, "hostmcp.db")
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("the state database is not where the test looks: %v", err)
	}
	beside := filepath.Join(e.stateDir, "written-by-session")
	code := "import os\nfor p, m in ((" + strconv.Quote(db) + ", 'rb'), ('/etc/shadow', 'r'), (" + strconv.Quote(beside) + ", 'w'), (" +
		strconv.Quote(filepath.Join(e.root, "ok")) + ", 'w')):\n  try:\n    open(p, m).close(); print('OPENED', p)\n  except OSError as e:\n    print('REFUSED', e.errno, p)\n"
	env, _ = call(t, ctx, cs, tools, "proc_send", map[string]any{"proc_id": st.ProcID, "input": code})
	mustData(t, env, &struct{}{})
	env, _ = call(t, ctx, cs, tools, "proc_read", map[string]any{"proc_id": st.ProcID, "timeout_ms": 10000, "until_quiet_ms": 5000})
	var rd struct {
		Output string `json:"output"`
	}
	mustData(t, env, &rd)
	// The state directory is hidden under the session's own tmpfs (ENOENT);
	// Landlock would refuse it besides.
	for _, want := range []string{"REFUSED 2 " + db, "REFUSED 13 /etc/shadow", "REFUSED 13 " + beside, "OPENED " + filepath.Join(e.root, "ok")} {
		if !strings.Contains(rd.Output, want+"\n") {
			t.Errorf("want %q in the session's output:\n%s", want, rd.Output)
		}
	}
	if _, err := os.Stat(beside); err == nil {
		t.Errorf("the session wrote %s", beside)
	}
}
