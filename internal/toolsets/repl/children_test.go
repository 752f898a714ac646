package repl

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// A child forked by a thread other than the main one is listed too: the
// kernel files children under the thread that forked them.
func TestChildrenOfEveryThread(t *testing.T) {
	// Hold this goroutine's thread, so the forking goroutine gets another:
	// if this one is the main thread, certainly not the main one.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	forked := make(chan *exec.Cmd)
	go func() {
		runtime.LockOSThread() // ended with the goroutine: the thread exits
		if unix.Gettid() == os.Getpid() {
			forked <- nil
			return
		}
		cmd := exec.Command("sleep", "30")
		if err := cmd.Start(); err != nil {
			forked <- nil
			return
		}
		forked <- cmd
		<-t.Context().Done() // keep the forking thread, and so the child's filing, alive
	}()
	cmd := <-forked
	if cmd == nil {
		t.Skip("the goroutine ran on the main thread, or sleep could not start")
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	children, ok := childrenOf(os.Getpid())
	if !ok || !slices.Contains(children, strconv.Itoa(cmd.Process.Pid)) {
		t.Fatalf("child %d forked by another thread is missing from %v", cmd.Process.Pid, children)
	}
}
