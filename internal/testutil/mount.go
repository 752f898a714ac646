package testutil

import (
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// MountTmpfs mounts a small tmpfs on dir (which must exist) for the rest of
// the test; it needs root. The mount is undone at cleanup even when the test
// fails, and wherever the test moved it.
func MountTmpfs(t testing.TB, dir string) {
	t.Helper()
	RequireRoot(t)
	if err := unix.Mount("hostmcp-test", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=4m,mode=0755"); err != nil {
		t.Fatalf("mounting a tmpfs on %s: %v", dir, err)
	}
	undoMount(t, dir)
}

// Mount mounts source on dir (which must exist) as mount(2) would, for the
// rest of the test; it needs root and undoes the mount at cleanup, as
// MountTmpfs does. Tests that need a file system of another kind or size
// (an overlay, a large tmpfs) use it.
func Mount(t testing.TB, source, dir, fstype string, flags uintptr, data string) {
	t.Helper()
	RequireRoot(t)
	if err := unix.Mount(source, dir, fstype, flags, data); err != nil {
		t.Fatalf("mounting %s (%s) on %s: %v", source, fstype, dir, err)
	}
	undoMount(t, dir)
}

// BindMount mounts the directory src on dst (which must exist) for the rest
// of the test: the same file system seen a second time, so dst has the
// device number of its parent and only its mount id tells it apart.
func BindMount(t testing.TB, src, dst string) {
	t.Helper()
	RequireRoot(t)
	if err := unix.Mount(src, dst, "", unix.MS_BIND, ""); err != nil {
		t.Fatalf("bind-mounting %s on %s: %v", src, dst, err)
	}
	undoMount(t, dst)
}

// undoMount unmounts, at cleanup, the mount just made on dir. A path
// descriptor of the mount's root tells where the mount is by then, even if
// the test renamed a directory above it; it is closed before unmounting
// (it would keep the mount busy). Unmounting is retried while busy (a
// walker may still hold a descriptor below it), and the mount detached
// lazily as the last resort: no test leaves a mount behind on a shared
// machine.
func undoMount(t testing.TB, dir string) {
	t.Helper()
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		_ = unix.Unmount(dir, unix.MNT_DETACH)
		t.Fatalf("opening the mount on %s: %v", dir, err)
	}
	t.Cleanup(func() {
		at, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd))
		unix.Close(fd)
		if err != nil {
			at = dir
		}
		for range 20 {
			if err = unix.Unmount(at, 0); !errors.Is(err, unix.EBUSY) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if err == nil {
			return
		}
		if derr := unix.Unmount(at, unix.MNT_DETACH); derr != nil {
			t.Errorf("unmounting %s (now at %s): %v, then lazily: %v", dir, at, err, derr)
		}
	})
}
