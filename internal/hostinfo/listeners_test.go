package hostinfo

import (
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// A listener with a backlog of 2 that never accepts: connections pile up
// in its accept queue until it is full, and sock_diag reports the queue,
// the backlog and this process as its holder.
func TestTCPListenersAcceptQueue(t *testing.T) {
	t.Parallel()
	// Three completed connections fill a backlog of 2 (the kernel admits
	// backlog+1); never accepted.
	addr := testutil.StuckListener(t, 2, 3)
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
