package testutil

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The recorder sees a file written by a child of this process, with the
// child's pid, a file written and removed at once, and a write of its own
// with its ancestors; a file only read is not a write.
func TestRecordWritesSeesAChildsWrites(t *testing.T) {
	dir := t.TempDir()
	kept, gone, read := filepath.Join(dir, "kept"), filepath.Join(dir, "gone"), filepath.Join(dir, "read")
	if err := os.WriteFile(read, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	w := RecordWrites(t)
	cmd := exec.Command(RequireBinary(t, "sh"), "-c", `echo a > "$1"; echo b > "$2"; rm "$2"; cat "$3" >/dev/null`, "sh", kept, gone, read)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	child := cmd.Process.Pid
	// A write of our own after the child's: once it is seen, the child's
	// events, queued before it, have been read too.
	marker := filepath.Join(dir, "marker")
	if err := os.WriteFile(marker, []byte("m"), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 200 {
		w.mu.Lock()
		done := slices.ContainsFunc(w.seen, func(wr Write) bool { return wr.Path == marker })
		w.mu.Unlock()
		if done {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	writes, overflowed := w.Stop()
	if overflowed {
		t.Fatal("the kernel dropped events")
	}
	byPath := map[string]Write{}
	for _, wr := range writes {
		if strings.HasPrefix(wr.Path, dir) {
			byPath[wr.Path] = wr
		}
	}
	if got := byPath[kept]; got.PID != child {
		t.Errorf("write of %s: %+v, want pid %d", kept, got, child)
	}
	got, ok := byPath[gone+" (deleted)"] // when it was read after the rm
	if !ok {
		got, ok = byPath[gone]
	}
	if !ok || got.PID != child {
		t.Errorf("write of the removed file: %+v, want pid %d, in %v", got, child, byPath)
	}
	if _, ok := byPath[read]; ok {
		t.Errorf("a file only read was recorded as written")
	}
	if got := byPath[marker]; got.PID != os.Getpid() || len(got.Ancestors) == 0 {
		t.Errorf("our own write: %+v, want pid %d and its ancestors", got, os.Getpid())
	}
}
