package search

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// Every file either engine shows is opened through req.open, which checks
// the mount of the very descriptor read: a file below a mount that appeared
// after the walk passed its directory (or inside a bind mount rg entered)
// is refused unless crossing was asked for.
func TestOpenRefusesFilesOnAnotherMount(t *testing.T) {
	testutil.RequireRoot(t)
	dir := t.TempDir()
	for _, d := range []string{"tm", "plain"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "plain/p.txt"), []byte("needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	roots, err := fsroot.Open([]fsroot.Spec{{Path: dir}})
	if err != nil {
		t.Fatal(err)
	}
	defer roots.Close()
	s := New(&Deps{Roots: roots})
	reqs := map[bool]*searchReq{}
	for _, cross := range []bool{false, true} {
		req, err := s.prepare(roots, contentIn{Pattern: "needle", CrossMounts: cross})
		if err != nil {
			t.Fatal(err)
		}
		defer req.close()
		reqs[cross] = req
	}
	// The mount appears once both searches have started.
	testutil.MountTmpfs(t, filepath.Join(dir, "tm"))
	if err := os.WriteFile(filepath.Join(dir, "tm/inside.txt"), []byte("needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for cross, req := range reqs {
		for rel, want := range map[string]bool{"plain/p.txt": true, "tm/inside.txt": cross} {
			f, _, err := req.open(rel)
			if (err == nil) != want {
				t.Errorf("cross_mounts %v: opening %s: %v, want success %v", cross, rel, err, want)
			}
			if f != nil {
				f.Close()
			}
		}
	}
}

// rg is told to stay on the root's file system (--one-file-system) only
// where another one could be met below the root: a mount point below it,
// or a file system whose devices change without mounts. On a plain tree
// the flag changes nothing rg walks and only costs it time.
func TestRgStaysOnTheFileSystemWhereAnotherLiesBelow(t *testing.T) {
	testutil.RequireRoot(t)
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "tm"), 0o755); err != nil {
		t.Fatal(err)
	}
	roots, err := fsroot.Open([]fsroot.Spec{{Path: dir}, {Path: "/proc"}})
	if err != nil {
		t.Fatal(err)
	}
	defer roots.Close()
	s := New(&Deps{Roots: roots})
	stays := func(in contentIn) bool {
		t.Helper()
		req, err := s.prepare(roots, in)
		if err != nil {
			t.Fatal(err)
		}
		defer req.close()
		return slices.Contains(rgBase(req.rgOptions()), "--one-file-system")
	}
	if loc, err := roots.Resolve(dir); err != nil {
		t.Fatal(err)
	} else if f, err := loc.Fence(false); err != nil {
		t.Fatal(err)
	} else if flat := f.SingleDeviceFS(); f.Close() != nil || !flat {
		t.Skipf("%s is not on ext2/3/4, xfs or tmpfs", dir)
	}
	if stays(contentIn{Path: dir, Pattern: "x"}) {
		t.Errorf("--one-file-system over a tree with nothing mounted below it")
	}
	if !stays(contentIn{Path: "/proc", Pattern: "x"}) {
		t.Errorf("no --one-file-system over /proc, whose type is not known to keep one device")
	}
	testutil.MountTmpfs(t, filepath.Join(dir, "tm"))
	if !stays(contentIn{Path: dir, Pattern: "x"}) {
		t.Errorf("no --one-file-system over a tree with a tmpfs mounted below it")
	}
	if stays(contentIn{Path: filepath.Join(dir, "tm"), Pattern: "x"}) {
		t.Errorf("--one-file-system over the tmpfs itself, with nothing mounted below it")
	}
	if stays(contentIn{Path: dir, Pattern: "x", CrossMounts: true}) {
		t.Errorf("--one-file-system with cross_mounts")
	}
}
