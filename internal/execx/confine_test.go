package execx

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/landlock"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// A confined cat reads below the directory it was given and nothing else,
// while the server itself, and every thread it has left, still reads
// anywhere.
func TestConfinedChildReadsOnlyItsDirectory(t *testing.T) {
	if landlock.ABI() == 0 {
		testutil.Missing(t, "%v", landlock.ErrUnsupported)
	}
	inside, outside := t.TempDir(), t.TempDir()
	for dir, text := range map[string]string{inside: "inside\n", outside: "outside\n"} {
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir, err := os.Open(inside)
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	r, err := New(&Options{Allowed: []string{"cat"}})
	if err != nil {
		t.Fatal(err)
	}
	confine := &landlock.Policy{Read: []*os.File{dir}}
	cat := func(path string) Result {
		res, err := r.Run(context.Background(), Cmd{Name: "cat", Args: []string{"--", path}, Confine: confine})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if res := cat(filepath.Join(inside, "f")); res.ExitCode != 0 || string(res.Stdout) != "inside\n" {
		t.Fatalf("inside: exit %d, %q %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	for _, p := range []string{filepath.Join(outside, "f"), "/etc/passwd", "/proc/self/environ"} {
		if res := cat(p); res.ExitCode == 0 || !strings.Contains(string(res.Stderr), "Permission denied") {
			t.Fatalf("%s: exit %d, %q %q", p, res.ExitCode, res.Stdout, res.Stderr)
		}
	}
	if b, err := os.ReadFile(filepath.Join(outside, "f")); err != nil || string(b) != "outside\n" {
		t.Fatalf("the server lost access: %q %v", b, err)
	}
	// The confining threads ended with their children: none of ours that
	// can still run goroutines is left with no_new_privs set, the mark
	// RestrictThread leaves. (When the locked goroutine happened to run on
	// the main thread, Go parks that thread for good instead of ending it:
	// runtime.mexit, "Just wedge it".)
	deadline := time.Now().Add(5 * time.Second)
	for {
		marked := confinedThreads(t)
		if len(marked) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("threads still confined: %v", marked)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func confinedThreads(t *testing.T) []string {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	var marked []string
	for _, task := range tasks {
		if task.Name() == strconv.Itoa(os.Getpid()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc/self/task", task.Name(), "status"))
		if err == nil && strings.Contains(string(b), "NoNewPrivs:\t1") {
			marked = append(marked, task.Name())
		}
	}
	return marked
}
