package fsroot

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// Mkdirs creates a directory and its parents. It reports whether anything
// was created; an existing directory is an error only when !existOK.
func (l Loc) Mkdirs(existOK bool) (bool, error) {
	if st, err := l.Root.r.Stat(l.Rel); err == nil {
		if !st.IsDir() {
			return false, tool.Errorf(tool.AlreadyExists, "%q exists and is %s", tool.Clip(l.Given), kindName(st.Mode()))
		}
		if !existOK {
			return false, tool.Errorf(tool.AlreadyExists, "directory %q already exists", tool.Clip(l.Given)).
				WithSuggestion("Pass exist_ok: true (the default) to accept an existing directory.")
		}
		return false, l.Writable() // nothing to create, but say so for a read-only root
	}
	return l.mkdirAll()
}

// Remove deletes a file, a symbolic link (never what it points to) or,
// with recursive, a directory tree. A root, a directory above a root, and
// anything in a read-only root are refused; which is which is decided from
// the entry the kernel finds, not from the path's spelling. So is a tree
// that holds a mount point, or is one, before anything is removed
// (removeTree).
func (s *Set) Remove(l Loc, recursive bool) error {
	dir, base, st, err := s.removable(l)
	if err != nil {
		return err
	}
	defer dir.Close()
	isDir := st.Mode&unix.S_IFMT == unix.S_IFDIR
	if isDir && !recursive {
		return tool.Errorf(tool.IsDirectory, "%q is a directory", tool.Clip(l.Given)).
			WithSuggestion("Pass recursive: true to delete it and everything in it (dry_run: true lists what would go).")
	}
	if isDir {
		return removeTree(l, nil)
	}
	if err := unix.Unlinkat(int(dir.Fd()), base, 0); err != nil {
		return pathError("deleting", l.Given, err)
	}
	return nil
}

// CheckRemovable refuses deleting or moving away a root, a directory
// above a root, or anything in a read-only root.
func (s *Set) CheckRemovable(l Loc) error {
	dir, _, _, err := s.removable(l)
	if err != nil {
		return err
	}
	return dir.Close()
}

// removable opens l's directory (checked writable) and describes l's
// entry in it, refusing a root or a directory above one.
func (s *Set) removable(l Loc) (*os.File, string, *unix.Stat_t, error) {
	dir, base, err := l.parent()
	if err != nil {
		return nil, "", nil, err
	}
	var st unix.Stat_t
	if err := unix.Fstatat(int(dir.Fd()), base, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		dir.Close()
		return nil, "", nil, pathError("inspecting", l.Given, err)
	}
	if s.holdsRoot(&st) {
		dir.Close()
		return nil, "", nil, tool.Errorf(tool.PermissionDenied, "%q is an allowed root or holds one; roots are never deleted or moved", tool.Clip(l.Given)).
			WithSuggestion("Delete or move entries inside the root instead.")
	}
	return dir, base, &st, nil
}

// Move renames src to dst. Without overwrite an existing dst is refused
// atomically (renameat2 RENAME_NOREPLACE). Across filesystems the tree is
// copied, synced and the source removed, which a source that is or holds a
// mount point refuses before anything is copied. It reports whether it
// copied.
func (s *Set) Move(src, dst Loc, overwrite bool) (bool, error) {
	sdir, sbase, sst, err := s.removable(src)
	if err != nil {
		return false, err
	}
	defer sdir.Close()
	ddir, dbase, err := dst.parent()
	if err != nil {
		return false, err
	}
	defer ddir.Close()
	if dst.dirOnly && sst.Mode&unix.S_IFMT != unix.S_IFDIR {
		return false, tool.Errorf(tool.NotADirectory, "%q ends in \"/\" but %q is not a directory", tool.Clip(dst.Given), tool.Clip(src.Given))
	}
	var dstat unix.Stat_t
	if err := unix.Fstatat(int(ddir.Fd()), dbase, &dstat, unix.AT_SYMLINK_NOFOLLOW); err == nil {
		if !overwrite {
			return false, tool.Errorf(tool.AlreadyExists, "%q already exists", tool.Clip(dst.Given)).
				WithSuggestion("Choose another target, or pass overwrite: true to replace it.")
		}
		if s.holdsRoot(&dstat) {
			return false, tool.Errorf(tool.PermissionDenied, "%q is an allowed root or holds one; it cannot be replaced", tool.Clip(dst.Given))
		}
		sIsDir, dIsDir := sst.Mode&unix.S_IFMT == unix.S_IFDIR, dstat.Mode&unix.S_IFMT == unix.S_IFDIR
		if sIsDir != dIsDir {
			return false, tool.Errorf(tool.IsDirectory, "cannot replace %q (%s) with %q (%s)", tool.Clip(dst.Given), kindName(fileMode(dstat.Mode)), tool.Clip(src.Given), kindName(fileMode(sst.Mode)))
		}
	}
	flags := uint(unix.RENAME_NOREPLACE)
	if overwrite {
		flags = 0
	}
	err = unix.Renameat2(int(sdir.Fd()), sbase, int(ddir.Fd()), dbase, flags)
	if err == nil {
		_ = ddir.Sync()
		_ = sdir.Sync()
		return false, nil
	}
	if !errors.Is(err, unix.EXDEV) {
		if errors.Is(err, unix.EINVAL) {
			return false, tool.Errorf(tool.InvalidArgument, "cannot move %q into itself (%q)", tool.Clip(src.Given), tool.Clip(dst.Given))
		}
		if mp, _ := src.IsMountPoint(); errors.Is(err, unix.EBUSY) && mp {
			return false, mountRefusal("move", src.Given, ".", false)
		}
		return false, pathError("moving to", dst.Given, err)
	}
	// The copy is followed by a recursive delete of the source, which
	// refuses a tree holding a mount point: refuse it before copying.
	if err := src.checkOneMount("move"); err != nil {
		return false, err
	}
	if err := copyTree(src, dst, overwrite); err != nil {
		return false, err
	}
	if err := s.Remove(src, true); err != nil {
		return true, err
	}
	return true, nil
}

// copyTree copies src to dst through their roots, for moves across
// filesystems: files keep their mode and are synced, links are copied as
// links, special files are refused.
func copyTree(src, dst Loc, overwrite bool) error {
	st, err := src.Lstat()
	if err != nil {
		return err
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		t, err := src.Root.r.Readlink(src.Rel)
		if err != nil {
			return pathError("reading", src.Given, err)
		}
		return dst.inParent("creating", func(dfd int, base string) error {
			if overwrite {
				_ = unix.Unlinkat(dfd, base, 0)
			}
			return unix.Symlinkat(t, dfd, base)
		})
	case st.IsDir():
		err := dst.inParent("creating", func(dfd int, base string) error {
			err := unix.Mkdirat(dfd, base, uint32(st.Mode().Perm()))
			if overwrite && errors.Is(err, unix.EEXIST) {
				return nil
			}
			return err
		})
		if err != nil {
			return err
		}
		d, err := src.Root.r.Open(src.Rel)
		if err != nil {
			return pathError("reading", src.Given, err)
		}
		names, err := d.Readdirnames(-1)
		d.Close()
		if err != nil {
			return pathError("reading", src.Given, err)
		}
		for _, n := range names {
			if err := copyTree(src.Child(n), dst.Child(n), overwrite); err != nil {
				return err
			}
		}
		return nil
	case st.Mode().IsRegular():
		in, _, err := src.OpenRegular()
		if err != nil {
			return err
		}
		defer in.Close()
		_, err = dst.WriteFrom(in, WriteOptions{Mode: st.Mode().Perm(), AllowHardlink: overwrite})
		return err
	}
	return notRegular(src.Given, st.Mode())
}

// inParent runs fn on l's directory, opened and checked by parent, and
// l's name in it; an error of fn is reported as failing op.
func (l Loc) inParent(op string, fn func(dirfd int, base string) error) error {
	d, base, err := l.parent()
	if err != nil {
		return err
	}
	defer d.Close()
	if err := fn(int(d.Fd()), base); err != nil {
		return pathError(op, l.Given, err)
	}
	return nil
}
