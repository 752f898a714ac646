package repl

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// probeDef defines, in a python3 session, probe(f): "OK" when f() runs,
// "DENIED <errno>" when it raises an OSError.
const probeDef = "def probe(f):\n  try:\n    f()\n    return 'OK'\n  except OSError as e:\n    return 'DENIED %d' % e.errno\n"

// probe evaluates expr (a Python callable) in the session through probe and
// returns "OK" or "DENIED <errno>".
func probe(t *testing.T, s *Set, id, expr string) string {
	t.Helper()
	got := eval(t, s, id, "print('=>', probe("+expr+"))")
	_, after, ok := strings.Cut(got, "\n=> ")
	if !ok {
		t.Fatalf("%s: no answer in %q", expr, got)
	}
	line, _, _ := strings.Cut(after, "\n")
	return strings.TrimSpace(line)
}

// confinedSession starts python3 over a read-write root and a read-only
// one, with probe defined, and returns the set, the session and the roots.
func confinedSession(t *testing.T, edit func(*config.Config)) (s *Set, st startOut, rw, ro string) {
	t.Helper()
	testutil.RequireRoot(t)
	rw, ro = t.TempDir(), t.TempDir()
	s = newConfigSet(t, func(c *config.Config) {
		c.Roots = []config.Root{{Path: rw}, {Path: ro, ReadOnly: true}}
		if edit != nil {
			edit(c)
		}
	})
	st = startPython(t, s)
	eval(t, s, st.ProcID, probeDef)
	return s, st, rw, ro
}

// A python3 session run by a root server reads and writes below its
// read-write root, only reads below its read-only root and its system
// files, and reaches nothing else: not /etc/shadow, not a file beside the
// roots, not the host's /tmp.
func TestSessionConfinedToRoots(t *testing.T) {
	secretDir := t.TempDir()
	secret := filepath.Join(secretDir, "secret")
	if err := os.WriteFile(secret, []byte("s3cret"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, st, rw, ro := confinedSession(t, nil)
	if err := os.WriteFile(filepath.Join(ro, "data"), []byte("ro"), 0o644); err != nil {
		t.Fatal(err)
	}
	trueBin, err := os.ReadFile("/usr/bin/true")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(rw, "true"), trueBin, 0o755); err != nil {
		t.Fatal(err)
	}
	q := strconv.Quote
	tests := []struct {
		name, expr, want string
	}{
		{"read /etc/shadow", "lambda: open('/etc/shadow').read()", "DENIED 13"},
		{"read beside the roots", "lambda: open(" + q(secret) + ").read()", "DENIED 13"},
		{"list beside the roots", "lambda: __import__('os').listdir(" + q(secretDir) + ")", "DENIED 13"},
		{"write beside the roots", "lambda: open(" + q(filepath.Join(secretDir, "new")) + ", 'w')", "DENIED 13"},
		{"overwrite beside the roots", "lambda: open(" + q(secret) + ", 'w')", "DENIED 13"},
		{"write in the host's /tmp", "lambda: open('/tmp/hostmcp-confine-probe', 'w')", "DENIED 13"},
		{"write in /etc", "lambda: open('/etc/hostmcp-confine-probe', 'w')", "DENIED 13"},
		{"write in the read-write root", "lambda: open(" + q(filepath.Join(rw, "made")) + ", 'w').write('x')", "OK"},
		{"mkdir in the read-write root", "lambda: __import__('os').mkdir(" + q(filepath.Join(rw, "dir")) + ")", "OK"},
		{"rename in the read-write root", "lambda: __import__('os').rename(" + q(filepath.Join(rw, "made")) + ", " + q(filepath.Join(rw, "dir", "moved")) + ")", "OK"},
		{"read in the read-only root", "lambda: open(" + q(filepath.Join(ro, "data")) + ").read()", "OK"},
		{"write in the read-only root", "lambda: open(" + q(filepath.Join(ro, "new")) + ", 'w')", "DENIED 13"},
		{"overwrite in the read-only root", "lambda: open(" + q(filepath.Join(ro, "data")) + ", 'a')", "DENIED 13"},
		{"remove in the read-only root", "lambda: __import__('os').unlink(" + q(filepath.Join(ro, "data")) + ")", "DENIED 13"},
		{"write in its HOME", "lambda: open(__import__('os').environ['HOME'] + '/f', 'w').write('x')", "OK"},
		{"write in its TMPDIR", "lambda: __import__('tempfile').NamedTemporaryFile().write(b'x')", "OK"},
		{"run a system program", "lambda: __import__('subprocess').run(['/usr/bin/true'], check=True)", "OK"},
		{"run a program in the read-write root", "lambda: __import__('subprocess').run([" + q(filepath.Join(rw, "true")) + "])", "DENIED 13"},
	}
	for _, tc := range tests {
		if got := probe(t, s, st.ProcID, tc.expr); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	// A system program the session runs is as confined as the session.
	if got := eval(t, s, st.ProcID, "r = __import__('subprocess').run(['cat', '/etc/shadow'], capture_output=True); print('cat', r.returncode, r.stdout)"); !strings.Contains(got, "\ncat 1 b''\n") {
		t.Errorf("cat /etc/shadow from the session: %q", got)
	}
	if _, err := os.Stat(filepath.Join(rw, "dir", "moved")); err != nil {
		t.Errorf("the write in the read-write root did not land: %v", err)
	}
	for _, p := range []string{filepath.Join(secretDir, "new"), filepath.Join(ro, "new"), "/tmp/hostmcp-confine-probe", "/etc/hostmcp-confine-probe"} {
		if _, err := os.Lstat(p); err == nil {
			os.Remove(p)
			t.Errorf("%s was created", p)
		}
	}
	if b, err := os.ReadFile(secret); err != nil || string(b) != "s3cret" {
		t.Errorf("the file beside the roots changed: %q %v", b, err)
	}
}

// TCP is refused unless [repl] network is on: a session can neither
// connect to a listener the test opens on loopback nor listen itself.
func TestSessionNetworkDenied(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go acceptAll(ln)
	s, st, _, _ := confinedSession(t, nil)
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	connect := "lambda: __import__('socket').create_connection(('127.0.0.1', " + port + "), 5)"
	if got := probe(t, s, st.ProcID, connect); got != "DENIED 13" {
		t.Errorf("connect to 127.0.0.1:%s: %s, want DENIED 13", port, got)
	}
	bind := "lambda: __import__('socket').socket().bind(('127.0.0.1', 0))"
	if got := probe(t, s, st.ProcID, bind); got != "DENIED 13" {
		t.Errorf("bind: %s, want DENIED 13", got)
	}
}

// acceptAll accepts connections and closes them until ln is closed.
func acceptAll(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		c.Close()
	}
}

// A session started by a root server holds no capability at all, in any
// of its five sets, so root's file permissions are all it has left.
func TestSessionHasNoCapabilities(t *testing.T) {
	testutil.RequireRoot(t)
	s := newTestSet(t, nil)
	st := startPython(t, s)
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", st.PID))
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, line := range strings.Split(string(status), "\n") {
		name, v, ok := strings.Cut(line, ":\t")
		if !ok || !strings.HasPrefix(name, "Cap") {
			continue
		}
		seen++
		if strings.Trim(v, "0") != "" {
			t.Errorf("%s of the session's program (pid %d) is %s, want none", name, st.PID, v)
		}
	}
	if seen != 5 {
		t.Errorf("found %d capability sets in /proc/%d/status, want 5", seen, st.PID)
	}
}

// With [repl] network on, the same session connects and binds.
func TestSessionNetworkAllowed(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go acceptAll(ln)
	s, st, _, _ := confinedSession(t, func(c *config.Config) { c.Repl.Network = true })
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	connect := "lambda: __import__('socket').create_connection(('127.0.0.1', " + port + "), 5)"
	if got := probe(t, s, st.ProcID, connect); got != "OK" {
		t.Errorf("connect to 127.0.0.1:%s: %s, want OK", port, got)
	}
	if got := probe(t, s, st.ProcID, "lambda: __import__('socket').socket().bind(('127.0.0.1', 0))"); got != "OK" {
		t.Errorf("bind: %s, want OK", got)
	}
	// Files are still confined.
	if got := probe(t, s, st.ProcID, "lambda: open('/etc/shadow').read()"); got != "DENIED 13" {
		t.Errorf("read /etc/shadow: %s, want DENIED 13", got)
	}
}

// [repl] user runs the program as that user, with its groups and no
// capability, in a HOME it owns.
func TestSessionRunsAsUser(t *testing.T) {
	testutil.RequireRoot(t)
	nobody, err := config.LookupUser("nobody")
	if err != nil {
		testutil.Missing(t, "this test needs the user nobody: %v", err)
	}
	root := t.TempDir()
	// The session's directory must be reachable by nobody.
	for _, d := range []string{root, filepath.Dir(root)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s := newConfigSet(t, func(c *config.Config) {
		c.Roots = []config.Root{{Path: root}}
		c.Repl.User = "nobody"
	})
	st := startPython(t, s)
	got := eval(t, s, st.ProcID, "import os; print('ids', os.getuid(), os.geteuid(), os.getgid(), os.getegid(), os.stat(os.environ['HOME']).st_uid)")
	want := fmt.Sprintf("ids %s %s %s %s %s\n", nobody.Uid, nobody.Uid, nobody.Gid, nobody.Gid, nobody.Uid)
	if !strings.Contains(got, want) {
		t.Errorf("got %q, want it to contain %q", got, want)
	}
	eval(t, s, st.ProcID, probeDef)
	if got := probe(t, s, st.ProcID, "lambda: open(__import__('os').environ['HOME'] + '/f', 'w').write('x')"); got != "OK" {
		t.Errorf("write in its HOME: %s", got)
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", st.PID))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if name, v, ok := strings.Cut(line, ":\t"); ok && (name == "CapEff" || name == "CapPrm" || name == "CapBnd") && strings.Trim(v, "0") != "" {
			t.Errorf("%s of the session is %s, want none", name, v)
		}
	}
}

// Without Landlock (forced here: this kernel has it) proc_start refuses
// and names the setting that allows it; with [repl] unconfined = true the
// session starts, with a warning, and is confined by nothing but its
// user's permissions and its dropped capabilities.
func TestUnconfinedRefusal(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "python3")
	s := newTestSet(t, nil)
	s.abi = 0
	_, terr := run[startOut](t, s.start(), "test", startIn{Command: []string{"python3"}})
	if terr == nil || terr.Code != "CAPABILITY_MISSING" || !strings.Contains(terr.Suggestion, "[repl] unconfined = true") {
		t.Fatalf("without Landlock: %+v, want CAPABILITY_MISSING suggesting [repl] unconfined = true", terr)
	}
	if len(s.reg.list()) != 0 {
		t.Fatal("the refused start left a session")
	}

	s = newTestSet(t, func(c *config.ReplConf) { c.Unconfined = true })
	s.abi = 0
	res := call(t, s.start(), startIn{Command: []string{"python3"}})
	if res.Err != nil || len(res.Envelope.Warnings) != 1 || !strings.Contains(res.Envelope.Warnings[0], "not confined") {
		t.Fatalf("unconfined start: error %v, warnings %q", res.Err, res.Envelope.Warnings)
	}
	var st startOut
	decode(t, res, &st)
	eval(t, s, st.ProcID, probeDef)
	if got := probe(t, s, st.ProcID, "lambda: open('/etc/shadow').read()"); got != "OK" {
		t.Errorf("an unconfined session run by root reads /etc/shadow (its owner's file): %s", got)
	}
}

// On a kernel whose Landlock cannot deny TCP (forced here) sessions refuse
// to start unless [repl] network or unconfined allows it; unconfined, the
// files stay confined and only TCP is open.
func TestOldLandlockRefusesNetwork(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "python3")
	s := newTestSet(t, nil)
	s.abi = 3
	_, terr := run[startOut](t, s.start(), "test", startIn{Command: []string{"python3"}})
	if terr == nil || terr.Code != "CAPABILITY_MISSING" || !strings.Contains(terr.Suggestion, "[repl] network = true") {
		t.Fatalf("ABI 3 without network: %+v, want CAPABILITY_MISSING suggesting [repl] network = true", terr)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go acceptAll(ln)
	s = newTestSet(t, func(c *config.ReplConf) { c.Unconfined = true })
	s.abi = 3
	res := call(t, s.start(), startIn{Command: []string{"python3"}})
	if res.Err != nil || len(res.Envelope.Warnings) != 1 || !strings.Contains(res.Envelope.Warnings[0], "TCP is not denied") {
		t.Fatalf("ABI 3, unconfined: error %v, warnings %q", res.Err, res.Envelope.Warnings)
	}
	var st startOut
	decode(t, res, &st)
	eval(t, s, st.ProcID, probeDef)
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	if got := probe(t, s, st.ProcID, "lambda: __import__('socket').create_connection(('127.0.0.1', "+port+"), 5)"); got != "OK" {
		t.Errorf("connect: %s, want OK", got)
	}
	if got := probe(t, s, st.ProcID, "lambda: open('/etc/shadow').read()"); got != "DENIED 13" {
		t.Errorf("read /etc/shadow: %s, want DENIED 13", got)
	}
}
