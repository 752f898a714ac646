package fsroot

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// writeFiles creates each file (and its directories) below dir.
func writeFiles(t *testing.T, dir string, files ...string) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// mustExist fails the test for each file below dir that is gone.
func mustExist(t *testing.T, dir string, files ...string) {
	t.Helper()
	for _, f := range files {
		if _, err := os.Lstat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s is gone: %v", f, err)
		}
	}
}

// mountedRoot is a root with a tree below which something is mounted at
// "tree/m": a tmpfs (another device), or a bind mount of "src" (the same
// device, told apart only by its mount id).
func mountedRoot(t *testing.T, kind string) (root string, s *Set) {
	t.Helper()
	testutil.RequireRoot(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, "keep.txt", "tree/a.txt", "tree/sub/b.txt", "src/s.txt")
	m := filepath.Join(root, "tree/m")
	if err := os.Mkdir(m, 0o755); err != nil {
		t.Fatal(err)
	}
	switch kind {
	case "tmpfs":
		testutil.MountTmpfs(t, m)
		writeFiles(t, m, "inside.txt")
	case "bind":
		testutil.BindMount(t, filepath.Join(root, "src"), m)
	}
	return root, newSet(t, Spec{Path: root})
}

// A recursive delete that meets a mount refuses before it removes anything:
// the tree around the mount and what is mounted are both left whole.
func TestRemoveRefusesATreeHoldingAMount(t *testing.T) {
	for _, kind := range []string{"tmpfs", "bind"} {
		t.Run(kind, func(t *testing.T) {
			root, s := mountedRoot(t, kind)
			l, err := s.Resolve("tree")
			if err != nil {
				t.Fatal(err)
			}
			err = s.Remove(l, true)
			if code(err) != tool.PermissionDenied || !strings.Contains(err.Error(), `"m"`) {
				t.Errorf("want PERMISSION_DENIED naming the mount point m, got %v", err)
			}
			mustExist(t, root, "keep.txt", "tree/a.txt", "tree/sub/b.txt", "src/s.txt")
			if kind == "tmpfs" {
				mustExist(t, root, "tree/m/inside.txt")
			} else {
				mustExist(t, root, "tree/m/s.txt")
			}
		})
	}
}

// The mount point itself is refused too: deleting it would empty the file
// system mounted there, then fail with "device or resource busy".
func TestRemoveRefusesAMountPoint(t *testing.T) {
	for _, kind := range []string{"tmpfs", "bind"} {
		t.Run(kind, func(t *testing.T) {
			root, s := mountedRoot(t, kind)
			l, err := s.Resolve("tree/m")
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Remove(l, true); code(err) != tool.PermissionDenied || !strings.Contains(err.Error(), "mount point") {
				t.Errorf("want PERMISSION_DENIED for a mount point, got %v", err)
			}
			mustExist(t, root, "src/s.txt")
			if kind == "tmpfs" {
				mustExist(t, root, "tree/m/inside.txt")
			}
		})
	}
}

// A move across file systems copies then removes the source: a source
// holding a mount is refused before anything is copied.
func TestMoveAcrossFileSystemsRefusesAMount(t *testing.T) {
	root, s := mountedRoot(t, "bind")
	other := filepath.Join(root, "other")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	testutil.MountTmpfs(t, other)
	src, _ := s.Resolve("tree")
	dst, _ := s.Resolve("other/tree")
	if _, err := s.Move(src, dst, false); code(err) != tool.PermissionDenied {
		t.Errorf("want PERMISSION_DENIED, got %v", err)
	}
	if _, err := os.Lstat(filepath.Join(other, "tree")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the refused move copied the tree: %v", err)
	}
	mustExist(t, root, "tree/a.txt", "tree/sub/b.txt", "tree/m/s.txt")
}

// Without mounts, a recursive delete removes the whole tree; a symbolic
// link in it goes as a link, and what it points to stays.
func TestRemoveTree(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	writeFiles(t, root, "keep.txt", "tree/a.txt", "tree/sub/deep/b.txt", "tree/sub/c.txt")
	writeFiles(t, outside, "o.txt")
	if err := os.Symlink(outside, filepath.Join(root, "tree/sub/out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "tree/empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := newSet(t, Spec{Path: root})
	l, _ := s.Resolve("tree")
	if err := s.Remove(l, true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(root, "tree")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("tree is still there: %v", err)
	}
	mustExist(t, root, "keep.txt")
	mustExist(t, outside, "o.txt")
}

// A mount that appears after the first walk is still never entered: the
// removal checks each directory's mount as it opens it, and stops there.
func TestRemoveNeverEntersAMountThatAppearsLater(t *testing.T) {
	root, s := mountedRoot(t, "none")
	late := filepath.Join(root, "tree/sub/late")
	if err := os.Mkdir(late, 0o755); err != nil {
		t.Fatal(err)
	}
	l, _ := s.Resolve("tree")
	err := removeTree(l, func() {
		testutil.MountTmpfs(t, late)
		writeFiles(t, late, "inside.txt")
	})
	if code(err) != tool.PermissionDenied || !strings.Contains(err.Error(), `"sub/late"`) || !strings.Contains(err.Error(), "stopped") {
		t.Errorf("want PERMISSION_DENIED naming sub/late and saying the delete stopped, got %v", err)
	}
	mustExist(t, root, "tree/sub/late/inside.txt", "keep.txt")
}

// A mount point is not moved away: the kernel refuses to rename one
// (EBUSY), and the answer says why.
func TestMountPointsAreNeverMoved(t *testing.T) {
	root, s := mountedRoot(t, "tmpfs")
	if _, err := s.Move(mustResolve(t, s, "tree/m"), mustResolve(t, s, "moved"), false); code(err) != tool.PermissionDenied || !strings.Contains(err.Error(), "mount point") {
		t.Errorf("moving a mount point: want PERMISSION_DENIED, got %v", err)
	}
	if mp, err := mustResolve(t, s, "tree/m").IsMountPoint(); !mp || err != nil {
		t.Errorf("tree/m: IsMountPoint %v, %v", mp, err)
	}
	if mp, err := mustResolve(t, s, "tree/sub").IsMountPoint(); mp || err != nil {
		t.Errorf("tree/sub: IsMountPoint %v, %v", mp, err)
	}
	mustExist(t, root, "tree/m/inside.txt", "tree/a.txt")
}

func mustResolve(t *testing.T, s *Set, p string) Loc {
	t.Helper()
	l, err := s.Resolve(p)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// holds compares mount ids where both sides have one, and a directory's
// device always; a file's device is left alone (overlayfs).
func TestMountIDHolds(t *testing.T) {
	dir := func(dev, mnt uint64, has bool) MountID { return MountID{dev: dev, mnt: mnt, hasMnt: has, dir: true} }
	file := func(dev, mnt uint64, has bool) MountID { return MountID{dev: dev, mnt: mnt, hasMnt: has} }
	start := dir(1, 10, true)
	for _, tc := range []struct {
		name string
		o    MountID
		want bool
	}{
		{"same mount", dir(1, 10, true), true},
		{"bind mount: same device, another mount", dir(1, 11, true), false},
		{"another device on the same mount (btrfs subvolume)", dir(2, 10, true), false},
		{"no mount id: devices decide", dir(1, 0, false), true},
		{"no mount id, another device", dir(2, 0, false), false},
		{"a file from a lower overlayfs layer", file(7, 10, true), true},
		{"a file on another mount", file(1, 11, true), false},
	} {
		if got := start.holds(tc.o); got != tc.want {
			t.Errorf("%s: holds %v, want %v", tc.name, got, tc.want)
		}
	}
}
