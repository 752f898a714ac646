package procs

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func liveReader(t testing.TB) *Reader {
	t.Helper()
	r, err := New("", 64)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A child the test starts is read back with its identity, owner, parent and
// a command line cut to the reader's limit.
func TestReadChildLive(t *testing.T) {
	// sleep adds up its operands: fifty zeros make a long argv.
	args := append([]string{"60"}, strings.Split(strings.Repeat("0 ", 50), " ")[:50]...)
	cmd := exec.Command("sleep", args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	r := liveReader(t)
	p := waitExec(t, r, cmd.Process.Pid, "sleep")
	if p.PPID != os.Getpid() || p.TGID != p.PID || p.EUID != os.Geteuid() || p.RUID != os.Getuid() {
		t.Errorf("identity: %+v", p)
	}
	if p.Comm != "sleep" || !strings.HasPrefix(p.Cmdline, "sleep 60 0 0") || len(p.Cmdline) != 64 || !p.CmdlineCut {
		t.Errorf("command: %q cut=%v", p.Cmdline, p.CmdlineCut)
	}
	if p.KernelThread() || p.StartTicks == 0 || p.RSSBytes == 0 {
		t.Errorf("fields: %+v", p)
	}
	anc, err := r.Ancestors(cmd.Process.Pid)
	if err != nil || len(anc) == 0 || anc[0] != os.Getpid() || anc[len(anc)-1] != 1 {
		t.Errorf("ancestors %v, %v", anc, err)
	}
	tab, err := r.All(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, q := range tab.Procs {
		found = found || q.Key() == p.Key()
	}
	if !found {
		t.Errorf("All lacks pid %d among %d", p.PID, len(tab.Procs))
	}
	if _, err := r.Read(cmd.Process.Pid+4194304, false); err == nil {
		t.Error("reading a pid that cannot exist succeeded")
	}
}

// A thread id is readable under /proc but is not a process: TGID says so.
func TestThreadIsNotAProcessLive(t *testing.T) {
	r := liveReader(t)
	ents, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		var tid int
		if _, err := fmt.Sscan(e.Name(), &tid); err != nil || tid == os.Getpid() {
			continue
		}
		p, err := r.Read(tid, false)
		if err != nil {
			continue // the thread ended
		}
		if p.TGID != os.Getpid() {
			t.Errorf("thread %d: TGID %d, want %d", tid, p.TGID, os.Getpid())
		}
		return
	}
	t.Skip("the test process has no second thread to look at")
}

func BenchmarkAllLive(b *testing.B) {
	r := liveReader(b)
	for b.Loop() {
		if _, err := r.All(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// waitExec reads pid until it runs comm: right after fork the child is
// still a copy of the test binary.
func waitExec(t *testing.T, r *Reader, pid int, comm string) Process {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		p, err := r.Read(pid, true)
		if err != nil {
			t.Fatal(err)
		}
		if p.Comm == comm && p.RSSBytes > 0 || time.Now().After(deadline) {
			return p
		}
		time.Sleep(10 * time.Millisecond)
	}
}
