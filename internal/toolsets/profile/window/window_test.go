package window

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// parentEnv makes the test binary play perf: start a window and wait.
const parentEnv = "WINDOW_TEST_PARENT"

func TestMain(m *testing.M) {
	Main()
	if os.Getenv(parentEnv) == "1" {
		w := exec.Command(os.Args[0])
		w.Args = Args(os.Args[0], time.Minute, os.Getppid())
		w.Env = append(os.Environ(), Env+"=1")
		if err := w.Start(); err != nil {
			os.Exit(2)
		}
		os.Stdout.WriteString(strconv.Itoa(w.Process.Pid) + "\n")
		_ = w.Wait()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// window runs the test binary as a window with args, as its direct child.
func window(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), Env+"=1")
	return cmd
}

// A window whose parent (perf) is killed dies with it.
func TestWindowDiesWithItsParent(t *testing.T) {
	parent := exec.Command(os.Args[0])
	parent.Env = append(os.Environ(), parentEnv+"=1")
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = parent.Process.Kill(); _ = parent.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the parent printed %q: %v", line, err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(line))
	time.Sleep(300 * time.Millisecond) // past the prctl and the check
	if !running(pid) {
		t.Fatalf("the window %d ended early", pid)
	}
	if err := parent.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = parent.Wait()
	for deadline := time.Now().Add(5 * time.Second); running(pid) && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
	}
	if running(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL) // ours: the parent we started started it
		t.Fatal("the window outlived its parent")
	}
}

// A window whose parent is not the server's child (perf died before the
// window could ask for the death signal) exits at once; one that is sleeps
// its time and exits 0.
func TestWindowChecksItsParent(t *testing.T) {
	// This process plays perf: the window's grandparent is our parent.
	if out, err := window(t, "0", strconv.Itoa(os.Getppid())).CombinedOutput(); err != nil {
		t.Fatalf("a 0 s window: %v: %s", err, out)
	}
	out, err := window(t, "60", strconv.Itoa(os.Getpid())).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "is gone") {
		t.Fatalf("a window under the wrong server: %v: %s", err, out)
	}
	for _, args := range [][]string{{}, {"x", "1"}, {"1", "0"}, {"-1", "1"}} {
		if out, err := window(t, args...).CombinedOutput(); err == nil {
			t.Errorf("window %q: succeeded: %s", args, out)
		}
	}
}

// running reports whether pid exists and is not a zombie.
func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] != 'Z'
}
