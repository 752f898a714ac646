package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// nobody is the unprivileged user these tests run the server as, the way
// Claude Code or Cursor start `hostmcp serve` as the user at the keyboard.
const nobody = 65534

// nobodyEnv is a server's state directory and root owned by nobody, in a
// directory it can reach, beside a file of root's that nobody may read.
type nobodyEnv struct {
	env
	outside string // mode 0644 beside the root: readable by nobody, outside its roots
}

func newNobodyEnv(t *testing.T) *nobodyEnv {
	t.Helper()
	testutil.RequireRoot(t)
	base, err := os.MkdirTemp("", "hostmcp-nonroot-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	e := &nobodyEnv{env: env{stateDir: filepath.Join(base, "state"), root: filepath.Join(base, "root")}, outside: filepath.Join(base, "outside.txt")}
	for _, d := range []string{e.stateDir, e.root} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(d, nobody, nobody); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(e.outside, []byte("not for sessions\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The control: without confinement nobody reads it.
	if out, err := asNobody(exec.Command("cat", e.outside)).CombinedOutput(); err != nil {
		t.Fatalf("nobody cannot read %s even unconfined, so the test proves nothing: %v %s", e.outside, err, out)
	}
	return e
}

// asNobody makes cmd run as nobody, in /, with a minimal environment.
func asNobody(cmd *exec.Cmd) *exec.Cmd {
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"}
	return cmd
}

// serveAsNobody starts `hostmcp serve` as nobody and connects to it. With
// maxUserNS >= 0 the server runs in a user namespace of the test's whose
// user.max_user_namespaces is maxUserNS (the sysctl is per namespace, so
// the host's is untouched): how a kernel that limits or forbids
// unprivileged user namespaces looks to the server.
func serveAsNobody(t *testing.T, ctx context.Context, e *nobodyEnv, maxUserNS int) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	args := e.args("serve")
	var cmd *exec.Cmd
	if maxUserNS < 0 {
		cmd = asNobody(exec.Command(binary, args...))
	} else {
		setpriv := testutil.RequireBinary(t, "setpriv")
		script := `echo "$0" > /proc/sys/user/max_user_namespaces && exec ` + setpriv + ` --reuid=65534 --regid=65534 --clear-groups -- "$@"`
		cmd = asNobody(exec.Command("/bin/sh", append([]string{"-c", script, strconv.Itoa(maxUserNS), binary}, args...)...))
		ids := []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1}, {ContainerID: nobody, HostID: nobody, Size: 1}}
		cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER, UidMappings: ids, GidMappings: ids, GidMappingsEnableSetgroups: true}
	}
	cmd.Stderr = &testLog{t: t}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connecting to the server run as nobody: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, cmd
}

// sessionOutput sends code to a python3 session and returns what it printed.
func sessionOutput(t *testing.T, ctx context.Context, cs *mcp.ClientSession, tools map[string]*mcp.Tool, procID, code string) string {
	t.Helper()
	env, _ := call(t, ctx, cs, tools, "proc_send", map[string]any{"proc_id": procID, "input": code})
	mustData(t, env, &struct{}{})
	env, _ = call(t, ctx, cs, tools, "proc_read", map[string]any{"proc_id": procID, "timeout_ms": 10000, "until_quiet_ms": 3000})
	var rd struct {
		Output string `json:"output"`
	}
	mustData(t, env, &rd)
	return rd.Output
}

type started struct {
	ProcID string `json:"proc_id"`
	PID    int    `json:"pid"`
}

// python3 is the system's interpreter, which nobody can run (the test's
// PATH may lead to one under root's home).
const python3 = "/usr/bin/python3"

// A server run as an ordinary user starts python3 sessions, and they are
// as confined as a root server's: Landlock keeps them from a file beside
// the root that the user may read, they hold no capability, and they
// cannot open the server's /proc/PID/environ or mem; inside they are that
// user, not root. The server stays non-dumpable throughout: a process of
// the same user on the host, trying all along while sessions start, never
// opens its environ, mem or fd either.
func TestNonRootServerSessionConfined(t *testing.T) {
	testutil.RequireFile(t, python3)
	e := newNobodyEnv(t)
	ctx := testCtx(t)
	cs, server := serveAsNobody(t, ctx, e, -1)
	tools := listTools(t, ctx, cs)
	serverPID := strconv.Itoa(server.Process.Pid)

	stop := filepath.Join(filepath.Dir(e.root), "stop-probing")
	probe := asNobody(exec.Command(python3, "-c", `import os, sys
pid, stop = sys.argv[1], sys.argv[2]
tries, opened = 0, set()
print('READY', flush=True)
while not os.path.exists(stop):
    for f in ('environ', 'mem', 'fd'):
        tries += 1
        try:
            if f == 'fd':
                os.listdir('/proc/%s/fd' % pid)
            else:
                open('/proc/%s/%s' % (pid, f), 'rb').close()
            opened.add(f)
        except OSError:
            pass
print(tries, *sorted(opened), flush=True)
`, serverPID, stop))
	probeOut, err := probe.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := probe.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = probe.Process.Kill(); _ = probe.Wait() }) // ours, by pid
	lines := bufio.NewScanner(probeOut)
	if !lines.Scan() || lines.Text() != "READY" {
		t.Fatalf("the prober did not start: %q", lines.Text())
	}

	var st started
	for i := 0; i < 3; i++ { // several starts, each a moment the prober might catch
		env, _ := call(t, ctx, cs, tools, "proc_start", map[string]any{"command": []string{"python3", "-q"}})
		mustData(t, env, &st)
	}
	if err := os.WriteFile(stop, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	lines.Scan()
	if tries, opened, _ := strings.Cut(lines.Text(), " "); opened != "" || tries == "" {
		t.Errorf("a process of the server's user opened the server's %q while sessions started (%s tries)", opened, tries)
	} else {
		t.Logf("%s tries to open the server's /proc/PID/environ, mem or fd while sessions started, all refused", tries)
	}
	if fi, err := os.Stat("/proc/" + serverPID + "/environ"); err != nil || fi.Sys().(*syscall.Stat_t).Uid != 0 {
		t.Errorf("the server is dumpable: its /proc/PID/environ belongs to uid %v (%v), not root", fi.Sys().(*syscall.Stat_t).Uid, err)
	}

	if exe, err := os.Readlink("/proc/" + strconv.Itoa(st.PID) + "/exe"); err != nil || !strings.Contains(filepath.Base(exe), "python3") {
		t.Errorf("proc_start's pid %d is not python3: %q %v", st.PID, exe, err)
	}
	status, err := os.ReadFile("/proc/" + strconv.Itoa(st.PID) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(l, "Cap") && strings.Trim(strings.TrimSpace(l[strings.IndexByte(l, ':')+1:]), "0") != "" {
			t.Errorf("the session holds capabilities: %s", l)
		}
	}
	if !strings.Contains(string(status), "\nNoNewPrivs:\t1\n") {
		t.Errorf("the session may gain privileges (no_new_privs unset):\n%s", status)
	}

	mine := filepath.Join(e.root, "mine")
	code := "import os\nprint(2+2)\nfor p, m in ((" + strconv.Quote(e.outside) + ", 'r'), ('/proc/" + serverPID + "/environ', 'rb'), ('/proc/" + serverPID + "/mem', 'rb'), (" + strconv.Quote(mine) + ", 'w'), (os.environ['HOME'] + '/history', 'w')):\n  try:\n    open(p, m).close(); print('OPENED', p)\n  except OSError as e:\n    print('REFUSED', e.errno, p)\n"
	out := sessionOutput(t, ctx, cs, tools, st.ProcID, code)
	for _, want := range []string{"\n4\n", "REFUSED 13 " + e.outside + "\n", "OPENED " + mine + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in the session's output:\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`\nOPENED /\S+/history\n`).MatchString(out) {
		t.Errorf("the session cannot write in its HOME:\n%s", out)
	}
	// Inside its user namespace the session is who it is outside, not root.
	out = sessionOutput(t, ctx, cs, tools, st.ProcID, "print('IDS', os.getuid(), os.getgid(), open('/proc/self/uid_map').read().split(), open('/proc/self/gid_map').read().split())")
	if want := "IDS 65534 65534 ['65534', '65534', '1'] ['65534', '65534', '1']\n"; !strings.Contains(out, want) {
		t.Errorf("want %q in the session's output:\n%s", want, out)
	}
	if strings.Contains(out, "OPENED /proc/") {
		t.Errorf("the session opened the server's /proc files:\n%s", out)
	}
	if fi, err := os.Stat(mine); err != nil || fi.Sys().(*syscall.Stat_t).Uid != nobody {
		t.Errorf("the session's file in the root is not nobody's: %v", err)
	}
}

// When a server run as an ordinary user is killed with SIGKILL, nothing
// its sessions started is left: not the session's init, not python3, not
// a process python3 started in a session of its own.
func TestNonRootServerSessionsDieWithIt(t *testing.T) {
	testutil.RequireFile(t, python3)
	e := newNobodyEnv(t)
	ctx := testCtx(t)
	cs, server := serveAsNobody(t, ctx, e, -1)
	tools := listTools(t, ctx, cs)
	env, _ := call(t, ctx, cs, tools, "proc_start", map[string]any{"command": []string{"python3", "-q"}})
	var st started
	mustData(t, env, &st)
	out := sessionOutput(t, ctx, cs, tools, st.ProcID, "import subprocess; c = subprocess.Popen(['sleep', '300'], start_new_session=True); 2+2")
	if !strings.Contains(out, "\n4\n") {
		t.Fatalf("2+2 gave %q", out)
	}
	homeInStateDir(t, st.PID, e.stateDir)
	left := descendants(server.Process.Pid)
	if len(left) < 3 { // init, python3, sleep
		t.Fatalf("want the session's init, python3 and sleep under the server, found %v", left)
	}
	if err := server.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range left {
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(pid) {
			t.Errorf("pid %d outlived the killed server", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL) // ours: a descendant of the server this test started
		}
	}
}

// Where the kernel allows an ordinary user no user namespace, proc_start
// says so with CAPABILITY_MISSING and names the setting; where it allows
// one, the first session starts and the next is refused the same way.
func TestNonRootServerWithoutUserNamespaces(t *testing.T) {
	testutil.RequireFile(t, python3)
	for _, tc := range []struct {
		name      string
		max       int
		refuseAll bool
		want      string // in the message: what the server knew before it tried, or what the kernel said
	}{
		{name: "none allowed", max: 0, refuseAll: true, want: "user.max_user_namespaces is 0"},
		{name: "one allowed", max: 1, want: "no space left on device (user.max_user_namespaces is 1 here"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newNobodyEnv(t)
			ctx := testCtx(t)
			cs, _ := serveAsNobody(t, ctx, e, tc.max)
			tools := listTools(t, ctx, cs)
			start := map[string]any{"command": []string{"python3", "-q"}}
			if !tc.refuseAll {
				env, _ := call(t, ctx, cs, tools, "proc_start", start)
				mustData(t, env, &started{})
			}
			env, _ := call(t, ctx, cs, tools, "proc_start", start)
			if env.Success || env.Error.Code != "CAPABILITY_MISSING" || !strings.Contains(env.Error.Message, tc.want) ||
				!strings.Contains(env.Error.Suggestion, "run hostmcp as root") {
				t.Errorf("want CAPABILITY_MISSING saying %q, with a way out, got %+v", tc.want, env.Error)
			}
		})
	}
}

// A hostmcp binary its user may execute but not read (mode 0711) makes
// every exec of it non-dumpable, the session's init included, whose user
// namespace the server then may not map: proc_start says so and how to fix
// it, rather than "permission denied".
func TestNonRootServerUnreadableBinary(t *testing.T) {
	e := newNobodyEnv(t)
	b, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	execOnly := filepath.Join(filepath.Dir(e.root), "hostmcp")
	if err := os.WriteFile(execOnly, b, 0o711); err != nil {
		t.Fatal(err)
	}
	cmd := asNobody(exec.Command(execOnly, e.args("call", "proc_start", `{"command": ["python3", "-q"]}`)...))
	out, err := cmd.Output()
	var env envelope
	if jerr := json.Unmarshal(out, &env); jerr != nil || err == nil {
		t.Fatalf("want a failed call's envelope, got %v %v:\n%s", err, jerr, out)
	}
	if env.Error.Code != "CAPABILITY_MISSING" || !strings.Contains(env.Error.Message, "readable") || !strings.Contains(env.Error.Suggestion, "chmod a+r") {
		t.Errorf("want CAPABILITY_MISSING saying the binary must be readable, got %+v", env.Error)
	}
}
