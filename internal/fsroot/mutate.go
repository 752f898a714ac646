package fsroot

import (
	"errors"
	"io/fs"
	"os"
	"path"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// Mkdirs creates a directory and its parents. It reports whether anything
// was created; an existing directory is an error only when !existOK.
func (l Loc) Mkdirs(existOK bool) (bool, error) {
	if err := l.Writable(); err != nil {
		return false, err
	}
	if st, err := l.Root.r.Stat(l.Rel); err == nil {
		if !st.IsDir() {
			return false, tool.Errorf(tool.AlreadyExists, "%q exists and is %s", l.Given, kindName(st.Mode()))
		}
		if !existOK {
			return false, tool.Errorf(tool.AlreadyExists, "directory %q already exists", l.Given).
				WithSuggestion("Pass exist_ok: true (the default) to accept an existing directory.")
		}
		return false, nil
	}
	if err := l.Root.r.MkdirAll(l.Rel, 0o755); err != nil {
		return false, pathError("creating", l.Given, err)
	}
	return true, nil
}

// Remove deletes a file, a symbolic link (never what it points to) or,
// with recursive, a directory tree. A root, an ancestor of a root, or a
// path whose tree holds another root is refused; so is a tree that holds a
// mount point, or is one, before anything is removed (removeTree).
func (s *Set) Remove(l Loc, recursive bool) error {
	if err := s.CheckRemovable(l); err != nil {
		return err
	}
	st, err := l.Lstat()
	if err != nil {
		return err
	}
	if st.IsDir() && !recursive {
		return tool.Errorf(tool.IsDirectory, "%q is a directory", l.Given).
			WithSuggestion("Pass recursive: true to delete it and everything in it (dry_run: true lists what would go).")
	}
	if st.IsDir() {
		return removeTree(l, nil)
	}
	if err := l.Root.r.Remove(l.Rel); err != nil {
		return pathError("deleting", l.Given, err)
	}
	return nil
}

// CheckRemovable refuses deleting or moving away a root, an ancestor of a
// root, or anything in a read-only root.
func (s *Set) CheckRemovable(l Loc) error {
	if err := l.Writable(); err != nil {
		return err
	}
	if l.IsRoot() || l.Abs() == "/" || s.containsRoot(l) {
		return tool.Errorf(tool.PermissionDenied, "%q is an allowed root or holds one; roots are never deleted or moved", l.Given).
			WithSuggestion("Delete or move entries inside the root instead.")
	}
	return nil
}

// Move renames src to dst. Without overwrite an existing dst is refused
// atomically (renameat2 RENAME_NOREPLACE). Across filesystems the tree is
// copied, synced and the source removed, which a source that is or holds a
// mount point refuses before anything is copied. It reports whether it
// copied.
func (s *Set) Move(src, dst Loc, overwrite bool) (bool, error) {
	if err := s.CheckRemovable(src); err != nil {
		return false, err
	}
	if err := dst.Writable(); err != nil {
		return false, err
	}
	if dst.IsRoot() || s.containsRoot(dst) {
		return false, tool.Errorf(tool.PermissionDenied, "%q is an allowed root or holds one; it cannot be replaced", dst.Given)
	}
	sst, err := src.Lstat()
	if err != nil {
		return false, err
	}
	if dstat, err := dst.Root.r.Lstat(dst.Rel); err == nil {
		if !overwrite {
			return false, tool.Errorf(tool.AlreadyExists, "%q already exists", dst.Given).
				WithSuggestion("Choose another target, or pass overwrite: true to replace it.")
		}
		if dstat.IsDir() != sst.IsDir() {
			return false, tool.Errorf(tool.IsDirectory, "cannot replace %q (%s) with %q (%s)", dst.Given, kindName(dstat.Mode()), src.Given, kindName(sst.Mode()))
		}
	}
	sdir, sbase, err := src.parent()
	if err != nil {
		return false, err
	}
	defer sdir.Close()
	ddir, dbase, err := dst.parent()
	if err != nil {
		return false, err
	}
	defer ddir.Close()
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
			return false, tool.Errorf(tool.InvalidArgument, "cannot move %q into itself (%q)", src.Given, dst.Given)
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

// parent opens l's directory through the root and returns it with l's base
// name, for the *at system calls.
func (l Loc) parent() (*os.File, string, error) {
	dirRel, base := path.Split(l.Rel)
	if dirRel == "" {
		dirRel = "."
	}
	d, err := l.Root.r.Open(path.Clean(dirRel))
	if err != nil {
		return nil, "", pathError("opening the directory of", l.Given, err)
	}
	return d, base, nil
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
		if overwrite {
			_ = dst.Root.r.Remove(dst.Rel)
		}
		return wrapIf(dst.Root.r.Symlink(t, dst.Rel), "creating", dst.Given)
	case st.IsDir():
		if err := dst.Root.r.Mkdir(dst.Rel, st.Mode().Perm()); err != nil && !(overwrite && errors.Is(err, fs.ErrExist)) {
			return pathError("creating", dst.Given, err)
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

func wrapIf(err error, op, given string) error {
	if err != nil {
		return pathError(op, given, err)
	}
	return nil
}
