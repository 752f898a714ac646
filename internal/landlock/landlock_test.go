package landlock

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// confined runs f on a thread of its own restricted to p, then lets that
// thread end: a Landlock domain cannot be lifted.
func confined(t *testing.T, p Policy, f func()) {
	t.Helper()
	if ABI() == 0 {
		testutil.Missing(t, "%v", ErrUnsupported)
	}
	onRestrictedThread(t, func() error { return RestrictThread(p) }, f)
}

// onRestrictedThread runs f on a thread of its own once restrict has
// restricted that thread, then lets the thread end.
func onRestrictedThread(t *testing.T, restrict func() error, f func()) {
	t.Helper()
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
		if err := restrict(); err != nil {
			errc <- err
			return
		}
		f()
		errc <- nil
	}()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

func open(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// denied reports whether err is the kernel's refusal.
func denied(err error) bool { return errors.Is(err, unix.EACCES) }

// A Write rule allows creating, renaming and removing below its directory,
// a Read rule only reading, and nothing else is reachable, not even for
// reading; the rules hold for the directories opened, so moving one away
// and putting a symbolic link in its place changes nothing.
func TestRules(t *testing.T) {
	base := t.TempDir()
	rw, ro, outside := filepath.Join(base, "rw"), filepath.Join(base, "ro"), filepath.Join(base, "outside")
	for _, d := range []string{rw, ro, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "f"), []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := Policy{Rules: []Rule{{open(t, rw), Write}, {open(t, ro), Read}}}
	// The read-only root's path now leads outside; the rule stays with the
	// directory, now at ro.moved.
	if err := os.Rename(ro, ro+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, ro); err != nil {
		t.Fatal(err)
	}
	var errs = map[string]error{}
	confined(t, p, func() {
		errs["write rw"] = os.WriteFile(filepath.Join(rw, "new"), nil, 0o644)
		errs["mkdir rw"] = os.Mkdir(filepath.Join(rw, "d"), 0o755)
		errs["rename rw"] = os.Rename(filepath.Join(rw, "new"), filepath.Join(rw, "d", "new"))
		errs["remove rw"] = os.Remove(filepath.Join(rw, "f"))
		_, errs["read ro"] = os.ReadFile(filepath.Join(ro+".moved", "f"))
		errs["write ro"] = os.WriteFile(filepath.Join(ro+".moved", "new"), nil, 0o644)
		_, errs["read through the swapped path"] = os.ReadFile(filepath.Join(ro, "f"))
		_, errs["read outside"] = os.ReadFile(filepath.Join(outside, "f"))
		_, errs["read /etc/passwd"] = os.ReadFile("/etc/passwd")
	})
	for name, ok := range map[string]bool{
		"write rw": true, "mkdir rw": true, "rename rw": true, "remove rw": true, "read ro": true,
		"write ro": false, "read through the swapped path": false, "read outside": false, "read /etc/passwd": false,
	} {
		if err := errs[name]; ok && err != nil || !ok && !denied(err) {
			t.Errorf("%s: %v, want allowed %v", name, err, ok)
		}
	}
}

// TCP connect and bind are denied unless the policy allows TCP.
func TestTCP(t *testing.T) {
	if ABI() < TCPABI {
		testutil.Missing(t, "this test needs Landlock ABI %d, the kernel has %d", TCPABI, ABI())
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().(*net.TCPAddr)
	try := func(tcp bool) (connect, bind error) {
		confined(t, Policy{TCP: tcp}, func() {
			connect = tcpConnect(addr.Port)
			bind = tcpBind()
		})
		return connect, bind
	}
	if c, b := try(false); !denied(c) || !denied(b) {
		t.Errorf("without TCP: connect %v, bind %v; want both denied", c, b)
	}
	if c, b := try(true); c != nil || b != nil {
		t.Errorf("with TCP: connect %v, bind %v; want both allowed", c, b)
	}
}

// tcpConnect and tcpBind use the system calls directly, on the calling
// thread: net.Dial may run them on another, unconfined one.
func tcpConnect(port int) error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return unix.Connect(fd, &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}})
}

func tcpBind() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}})
}

// A ruleset built here and enforced later by RestrictSelf confines as
// RestrictThread does; path rules for missing files are left out.
func TestRulesetEnforcedLater(t *testing.T) {
	if ABI() == 0 {
		testutil.Missing(t, "%v", ErrUnsupported)
	}
	dir := t.TempDir()
	rs, err := NewRuleset(Policy{Paths: []PathRule{{dir, Read}, {filepath.Join(dir, "missing"), Read}}})
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	errc := make(chan [2]error, 1)
	go func() {
		runtime.LockOSThread()
		if err := RestrictSelf(int(rs.Fd())); err != nil {
			errc <- [2]error{err, nil}
			return
		}
		_, inside := os.ReadDir(dir)
		_, outside := os.ReadFile("/etc/hostname")
		errc <- [2]error{inside, outside}
	}()
	got := <-errc
	if got[0] != nil || !denied(got[1]) {
		t.Fatalf("inside %v, outside %v; want allowed and denied", got[0], got[1])
	}
}
