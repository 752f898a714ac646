package fsroot

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// reportedOn is a Reported for paths below "tree" of root, the fence
// crossing mounts or not.
func reportedOn(t *testing.T, s *Set, cross bool) *Reported {
	t.Helper()
	l, err := s.Resolve("tree")
	if err != nil {
		t.Fatal(err)
	}
	f, err := l.Fence(cross)
	if err != nil {
		t.Fatal(err)
	}
	r := f.Reported()
	t.Cleanup(func() { r.Close(); f.Close() })
	return r
}

// Only clean paths to regular files reached without a link come through,
// whether asked as Regular (search_files) or Open (search_content).
func TestReportedRefusesLinksAndClimbs(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	writeFiles(t, root, "tree/a.txt", "tree/sub/b.txt", "secret.txt")
	writeFiles(t, outside, "o.txt")
	for link, to := range map[string]string{
		"tree/out":      outside,                           // a directory outside
		"tree/file.lnk": filepath.Join(root, "secret.txt"), // a file outside the start
		"tree/dir.lnk":  filepath.Join(root, "tree/sub"),   // a directory inside
	} {
		if err := os.Symlink(to, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "tree/fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := reportedOn(t, newSet(t, Spec{Path: root}), false)
	for rel, want := range map[string]bool{
		"a.txt": true, "sub/b.txt": true,
		"out/o.txt": false, "file.lnk": false, "dir.lnk/b.txt": false, "fifo": false,
		"../secret.txt": false, "sub/../a.txt": false, "./a.txt": false, "/a.txt": false,
		"": false, ".": false, "sub": false, "missing.txt": false,
	} {
		if got := r.Regular(rel); got != want {
			t.Errorf("Regular(%q) = %v, want %v", rel, got, want)
		}
		f, err := r.Open(rel)
		if (err == nil) != want {
			t.Errorf("Open(%q): err %v, want opened %v", rel, err, want)
		}
		if f != nil {
			f.Close()
		}
	}
}

// A directory swapped for a link after it was first reported is not
// followed: the directories it already holds are by descriptor, and a new
// one is opened without following.
func TestReportedDirectorySwappedForALink(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	writeFiles(t, root, "tree/d/a.txt", "tree/e/a.txt")
	writeFiles(t, outside, "a.txt")
	r := reportedOn(t, newSet(t, Spec{Path: root}), false)
	if !r.Regular("d/a.txt") {
		t.Fatal("d/a.txt not admitted before the swap")
	}
	for _, d := range []string{"d", "e"} {
		if err := os.RemoveAll(filepath.Join(root, "tree", d)); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, filepath.Join(root, "tree", d)); err != nil {
			t.Fatal(err)
		}
	}
	if r.Regular("e/a.txt") {
		t.Error("e/a.txt admitted through a link to outside")
	}
	if f, err := r.Open("d/a.txt"); err == nil {
		f.Close()
		t.Error("d/a.txt opened after d became a link to outside")
	}
}

// A bind mount below the start is refused unless crossing is allowed, as
// is a file on it; more directories than are held open at once still
// answer alike.
func TestReportedFencesMountsAndBoundsDescriptors(t *testing.T) {
	root, s := mountedRoot(t, "bind")
	var many []string
	for i := range maxReportedDirs + 10 {
		many = append(many, fmt.Sprintf("tree/many/%03d/f.txt", i))
	}
	writeFiles(t, root, many...)
	for _, cross := range []bool{false, true} {
		r := reportedOn(t, s, cross)
		if got := r.Regular("m/s.txt"); got != cross {
			t.Errorf("cross %v: Regular(m/s.txt) = %v", cross, got)
		}
		f, err := r.Open("m/s.txt")
		if (err == nil) != cross {
			t.Errorf("cross %v: Open(m/s.txt): %v", cross, err)
		}
		if f != nil {
			f.Close()
		}
		for round := range 2 {
			for _, p := range many {
				if !r.Regular(p[len("tree/"):]) {
					t.Fatalf("round %d: %s not admitted", round, p)
				}
			}
		}
		if r.open > maxReportedDirs {
			t.Errorf("%d directories held open, over %d", r.open, maxReportedDirs)
		}
	}
}

// Close gives back every directory descriptor the checks opened, though
// after it returns: none is left open once its goroutine has run, and a
// Reported used again after Close reopens what it needs.
func TestReportedCloseReleasesItsDirectories(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for i := range 40 {
		files = append(files, fmt.Sprintf("tree/d%02d/e/f.txt", i))
	}
	writeFiles(t, root, files...)
	r := reportedOn(t, newSet(t, Spec{Path: root}), false)
	tree := filepath.Join(root, "tree")
	before := testutil.DescriptorsUnder(t, tree) // the fence's own, on the start
	check := func() {
		for i := range 40 {
			if rel := fmt.Sprintf("d%02d/e/f.txt", i); !r.Regular(rel) {
				t.Fatalf("Regular(%q) = false", rel)
			}
		}
	}
	check()
	if opened := testutil.DescriptorsUnder(t, tree) - before; opened != 80 {
		t.Fatalf("%d descriptors opened for 40 files two directories deep; want 80", opened)
	}
	r.Close()
	for deadline := time.Now().Add(time.Minute); testutil.DescriptorsUnder(t, tree) != before; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d descriptors still open a minute after Close", testutil.DescriptorsUnder(t, tree)-before)
		}
	}
	check()
}
