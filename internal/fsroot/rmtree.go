package fsroot

import (
	"errors"
	"io"
	"os"
	"path"
	"sort"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// mountRefusal is the error of a delete or a move that meets a mount point
// at rel ("." for the path itself): what is mounted is another file system
// (or the same one seen twice), which a recursive delete must never empty.
// started says the delete had begun removing (the mount appeared after its
// first walk), so the message does not claim that nothing changed.
func mountRefusal(op, given, rel string, started bool) *tool.Error {
	outcome := "nothing was changed"
	if started {
		outcome = "the delete stopped there: entries removed before it are gone, the mount and the rest are untouched"
	}
	var e *tool.Error
	if rel == "." {
		e = tool.Errorf(tool.PermissionDenied, "%q is a mount point (a file system is mounted there); a mount point is never deleted or moved, and %s", tool.Clip(given), outcome)
	} else {
		e = tool.Errorf(tool.PermissionDenied, "%q holds a mount point at %q (another file system is mounted there); a recursive %s never crosses into a mount, and %s", tool.Clip(given), tool.Clip(rel), op, outcome)
	}
	return e.WithSuggestion("Unmount it first (outside hostmcp), or %s the other entries around it one by one; fs_delete with dry_run: true lists the mount points of a tree.", op)
}

// tree is a directory opened for a delete or a move that must stay on its
// mount: opened from its parent without following a link, and checked not
// to be a mount point itself.
type tree struct {
	parent *os.File
	dir    *os.File
	base   string
	id     MountID
}

func openTree(l Loc, op string) (*tree, error) {
	parent, base, err := l.parent()
	if err != nil {
		return nil, err
	}
	t := &tree{parent: parent, base: base}
	pid, err := mountOf(parent)
	if err != nil {
		t.close()
		return nil, pathError("inspecting", l.Given, err)
	}
	if t.dir, err = openDirAt(parent, base); err != nil {
		t.close()
		return nil, pathError("inspecting", l.Given, err)
	}
	if t.id, err = mountOf(t.dir); err != nil {
		t.close()
		return nil, pathError("inspecting", l.Given, err)
	}
	if !pid.holds(t.id) {
		t.close()
		return nil, mountRefusal(op, l.Given, ".", false)
	}
	return t, nil
}

func (t *tree) close() {
	if t.dir != nil {
		t.dir.Close()
	}
	t.parent.Close()
}

// openDirAt opens the directory name in d, never through a link.
func openDirAt(d *os.File, name string) (*os.File, error) {
	fd, err := unix.Openat(int(d.Fd()), name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}

// gone reports an entry removed or replaced by a non-directory while the
// walk looked at it: the walk goes on without it.
func gone(err error) bool {
	return errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP)
}

// firstMount walks the tree below d, never following a link, and returns
// the first entry (in name order, relative to d) on a mount other than id,
// or "" when the whole tree lies on it.
func firstMount(d *os.File, id MountID, rel string) (string, error) {
	names, err := d.Readdirnames(-1)
	if err != nil {
		return "", err
	}
	sort.Strings(names)
	for _, n := range names {
		child := path.Join(rel, n)
		cid, err := statxMount(int(d.Fd()), n, 0)
		if errors.Is(err, unix.ENOENT) {
			continue
		}
		if err != nil {
			return "", err
		}
		if !id.holds(cid) {
			return child, nil
		}
		if !cid.dir {
			continue
		}
		sub, err := openDirAt(d, n)
		if gone(err) {
			continue
		}
		if err != nil {
			return "", err
		}
		found, err := checkedFirstMount(sub, id, child)
		sub.Close()
		if found != "" || err != nil {
			return found, err
		}
	}
	return "", nil
}

// checkedFirstMount is firstMount of a directory just opened, which is
// itself the mount point found when a mount appeared on it meanwhile.
func checkedFirstMount(sub *os.File, id MountID, rel string) (string, error) {
	sid, err := mountOf(sub)
	if err != nil {
		return "", err
	}
	if !id.holds(sid) {
		return rel, nil
	}
	return firstMount(sub, id, rel)
}

// checkOneMount refuses l when it is a mount point or, for a directory,
// when its tree holds one: what a recursive delete or a copying move checks
// before it changes anything.
func (l Loc) checkOneMount(op string) error {
	st, err := l.Lstat()
	if err != nil {
		return err
	}
	if !st.IsDir() {
		mp, err := l.IsMountPoint()
		if err != nil {
			return err
		}
		if mp {
			return mountRefusal(op, l.Given, ".", false)
		}
		return nil
	}
	t, err := openTree(l, op)
	if err != nil {
		return err
	}
	defer t.close()
	found, err := firstMount(t.dir, t.id, "")
	if err != nil {
		return pathError("inspecting", l.Given, err)
	}
	if found != "" {
		return mountRefusal(op, l.Given, found, false)
	}
	return nil
}

// removeTree deletes the directory l and everything in it, staying on its
// mount: it refuses a mount point, walks the whole tree first and refuses,
// before removing anything, when a mount lies in it; then it removes with a
// walk of its own through directory descriptors (not os.RemoveAll, which
// would enter a mount), checking each directory's mount again as it opens
// it, so a mount that appears after the first walk is never entered either.
// afterCheck, in tests, runs between the two walks.
func removeTree(l Loc, afterCheck func()) error {
	t, err := openTree(l, "delete")
	if err != nil {
		return err
	}
	defer t.close()
	found, err := firstMount(t.dir, t.id, "")
	if err != nil {
		return pathError("deleting", l.Given, err)
	}
	if found != "" {
		return mountRefusal("delete", l.Given, found, false)
	}
	if afterCheck != nil {
		afterCheck()
	}
	if _, err := t.dir.Seek(0, io.SeekStart); err != nil {
		return pathError("deleting", l.Given, err)
	}
	if err := emptyDir(t.dir, t.id, "", l.Given); err != nil {
		return err
	}
	if err := unix.Unlinkat(int(t.parent.Fd()), t.base, unix.AT_REMOVEDIR); err != nil {
		if errors.Is(err, unix.EBUSY) {
			return mountRefusal("delete", l.Given, ".", true)
		}
		return pathError("deleting", l.Given, err)
	}
	_ = t.parent.Sync()
	return nil
}

// emptyDir removes everything below d, which lies on the mount id; it
// stops at the first entry on another mount.
func emptyDir(d *os.File, id MountID, rel, given string) error {
	names, err := d.Readdirnames(-1)
	if err != nil {
		return pathError("deleting", given, err)
	}
	dfd := int(d.Fd())
	for _, n := range names {
		child := path.Join(rel, n)
		cid, err := statxMount(dfd, n, 0)
		if errors.Is(err, unix.ENOENT) {
			continue
		}
		if err != nil {
			return pathError("deleting", given, err)
		}
		if !id.holds(cid) {
			return mountRefusal("delete", given, child, true)
		}
		flags := 0
		if cid.dir {
			sub, err := openDirAt(d, n)
			switch {
			case errors.Is(err, unix.ENOENT):
				continue
			case gone(err): // now a file or a link: unlinked as one
			case err != nil:
				return pathError("deleting", given, err)
			default:
				err = emptyCheckedDir(sub, id, child, given)
				sub.Close()
				if err != nil {
					return err
				}
				flags = unix.AT_REMOVEDIR
			}
		}
		err = unix.Unlinkat(dfd, n, flags)
		switch {
		case err == nil, errors.Is(err, unix.ENOENT):
		case errors.Is(err, unix.EBUSY):
			return mountRefusal("delete", given, child, true)
		default:
			return pathError("deleting", given, err)
		}
	}
	return nil
}

// emptyCheckedDir is emptyDir of a directory just opened, refused when a
// mount appeared on it meanwhile.
func emptyCheckedDir(sub *os.File, id MountID, rel, given string) error {
	sid, err := mountOf(sub)
	if err != nil {
		return pathError("deleting", given, err)
	}
	if !id.holds(sid) {
		return mountRefusal("delete", given, rel, true)
	}
	return emptyDir(sub, id, rel, given)
}

// CheckMounts refuses l, before anything changes, when it is a mount
// point or a directory whose tree holds one, with the error a recursive
// op ("delete", "move") would meet: a tool checks it before it asks a
// person to confirm what would be refused anyway.
func (l Loc) CheckMounts(op string) error { return l.checkOneMount(op) }
