package hostinfo

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A listener with a backlog of 2 that never accepts: connections pile up
// in its accept queue until it is full, and sock_diag reports the queue,
// the backlog and this process as its holder.
func TestTCPListenersAcceptQueue(t *testing.T) {
	t.Parallel()
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if err := unix.Bind(fd, &unix.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := unix.Listen(fd, 2); err != nil {
		t.Fatal(err)
	}
	sa, err := unix.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", sa.(*unix.SockaddrInet4).Port)
	// Three completed connections fill a backlog of 2 (the kernel admits
	// backlog+1); non-blocking connects, never accepted.
	for range 3 {
		c, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC|unix.SOCK_NONBLOCK, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer unix.Close(c)
		if err := unix.Connect(c, sa); err != nil && err != syscall.EINPROGRESS {
			t.Fatal(err)
		}
	}
	var got *Listener
	for range 50 {
		ls, err := New(Roots{}).TCPListeners(2 * time.Second)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ls {
			if ls[i].Addr == addr {
				got = &ls[i]
			}
		}
		if got != nil && got.AcceptQueue == 3 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got == nil || got.AcceptQueue != 3 || got.Backlog != 2 || got.PID != os.Getpid() || !strings.HasPrefix(got.Comm, "hostinfo") {
		t.Fatalf("listener %s: %+v", addr, got)
	}
}

func FuzzParseDiagMsg(f *testing.F) {
	msg := make([]byte, diagMsgLen)
	msg[0] = unix.AF_INET6
	f.Add(msg)
	f.Add(msg[:10])
	f.Fuzz(func(t *testing.T, b []byte) {
		l, ok := parseDiagMsg(b)
		if ok && (len(b) < diagMsgLen || l.Addr == "") {
			t.Fatalf("%x: %+v", b, l)
		}
	})
}
