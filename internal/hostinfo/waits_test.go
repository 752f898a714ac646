package hostinfo

import (
	"errors"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A fixture captured from `cat` reading an empty pipe on a 6.18 kernel, as
// root (who alone may read /proc/PID/stack).
func TestReadThreadWaitFixture(t *testing.T) {
	t.Parallel()
	h := New(Roots{Proc: "testdata/waits/proc"})
	got, err := h.ReadThreadWait(10916, 10916)
	if err != nil {
		t.Fatal(err)
	}
	want := ThreadWait{Comm: "cat", State: "S", WChan: "anon_pipe_read",
		Stack: []string{"anon_pipe_read", "vfs_read", "ksys_read", "do_syscall_64", "entry_SYSCALL_64_after_hwframe"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := h.ReadThreadWait(10916, 1); !errors.Is(err, ErrPIDNotFound) {
		t.Errorf("a missing thread: %v", err)
	}
}

func TestParseWaitFiles(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"anon_pipe_read": "anon_pipe_read", "0": "", "0\n": "", "": "", "do_epoll_wait\n": "do_epoll_wait"} {
		if got := parseWchan([]byte(in)); got != want {
			t.Errorf("parseWchan(%q) = %q, want %q", in, got, want)
		}
	}
	stack := "[<0>] jbd2_log_wait_commit+0xb5/0x130 [jbd2]\n[<0>] ext4_sync_file+0x1d0/0x3a0\n\ngarbage\n[<0>] \n"
	if got, want := parseKernelStack([]byte(stack)), []string{"jbd2_log_wait_commit", "ext4_sync_file"}; !slices.Equal(got, want) {
		t.Errorf("parseKernelStack = %q, want %q", got, want)
	}
}

func FuzzParseKernelStack(f *testing.F) {
	b, _ := os.ReadFile("testdata/waits/proc/10916/task/10916/stack")
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, fn := range parseKernelStack(b) {
			if fn == "" {
				t.Fatalf("an empty frame from %q", b)
			}
		}
		_ = parseWchan(b)
	})
}

// A child blocked reading a pipe: /proc says it sleeps in the pipe read.
func TestReadThreadWaitLive(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("cat")
	w, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { w.Close(); _ = cmd.Wait() }()
	pid := cmd.Process.Pid
	h := New(Roots{})
	var got ThreadWait
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if got, err = h.ReadThreadWait(pid, pid); err != nil {
			t.Fatal(err)
		}
		if got.WChan != "" {
			break
		}
	}
	if got.Comm != "cat" || got.State != "S" || got.WChan != "anon_pipe_read" && got.WChan != "pipe_read" {
		t.Fatalf("cat reading an empty pipe: %+v", got)
	}
	if os.Geteuid() == 0 && (len(got.Stack) == 0 || got.Stack[0] != got.WChan) {
		t.Errorf("as root the stack starts at the wait channel: %+v", got)
	}
	if all, err := h.ReadAllThreads(); err != nil || !slices.ContainsFunc(all, func(p ProcessThreads) bool { return p.PID == pid && len(p.Threads) == 1 }) {
		t.Errorf("ReadAllThreads does not list cat (pid %d) with its one thread: %v", pid, err)
	}
}
