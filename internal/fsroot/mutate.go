package fsroot

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// Mkdirs creates a directory and its parents. It reports whether anything
// was created; an existing directory is an error only when !existOK.
func (l Loc) Mkdirs(existOK bool) (bool, error) {
	if exists, err := l.existingDir(existOK); exists || err != nil {
		return false, err
	}
	return l.mkdirAll()
}

// PlanMkdirs makes every check Mkdirs makes and names the directories it
// would create, relative to the root, shallowest first (none when l
// exists); it changes nothing.
func (l Loc) PlanMkdirs(existOK bool) ([]string, error) {
	if exists, err := l.existingDir(existOK); exists || err != nil {
		return nil, err
	}
	d, missing, err := l.nearestDir()
	if err != nil {
		return nil, err
	}
	defer d.Close()
	if len(missing) == 0 {
		return nil, nil
	}
	if err := l.writableIn(d); err != nil {
		return nil, err
	}
	return l.missingPaths(missing), nil
}

// existingDir reports whether l already exists, and the error Mkdirs
// answers for it: not a directory, !existOK, or a read-only root.
func (l Loc) existingDir(existOK bool) (bool, error) {
	st, err := l.Root.r.Stat(l.Rel)
	if err != nil {
		return false, nil
	}
	if !st.IsDir() {
		return true, tool.Errorf(tool.AlreadyExists, "%q exists and is %s", tool.Clip(l.Given), TypeOf(st.Mode()).Phrase())
	}
	if !existOK {
		return true, tool.Errorf(tool.AlreadyExists, "directory %q already exists", tool.Clip(l.Given)).
			WithSuggestion("Pass exist_ok: true (the default) to accept an existing directory.")
	}
	return true, l.Writable() // nothing to create, but say so for a read-only root
}

// missingPaths turns the trailing names of l.Rel that nearestDir found
// missing into paths relative to the root, shallowest first.
func (l Loc) missingPaths(missing []string) []string {
	parts := strings.Split(l.Rel, "/")
	kept := parts[:len(parts)-len(missing)]
	out := make([]string, len(missing))
	for i := range missing {
		out[i] = path.Join(append(slices.Clip(kept), missing[:i+1]...)...)
	}
	return out
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

// MovePlan is what Move finds before it changes anything.
type MovePlan struct {
	Source fs.FileInfo
	// Target is the entry the move would replace; nil when there is none.
	Target fs.FileInfo
	// Copies says source and target lie on different file systems: Move
	// would copy the source, then delete it.
	Copies bool
}

// PlanMove makes every check Move makes before it renames, and says what
// it found; it changes nothing.
func (s *Set) PlanMove(src, dst Loc, overwrite bool) (MovePlan, error) {
	m, err := s.checkMove(src, dst, overwrite)
	if err != nil {
		return MovePlan{}, err
	}
	defer m.close()
	var p MovePlan
	if p.Source, err = src.Lstat(); err != nil {
		return MovePlan{}, err
	}
	if m.dst != nil {
		if p.Target, err = dst.Lstat(); err != nil {
			return MovePlan{}, err
		}
	}
	var dirSt unix.Stat_t
	if err := unix.Fstat(int(m.ddir.Fd()), &dirSt); err == nil {
		p.Copies = dirSt.Dev != m.sst.Dev
	}
	return p, nil
}

// moveCheck is a move checked and ready: both directories open.
type moveCheck struct {
	sdir, ddir   *os.File
	sbase, dbase string
	sst          *unix.Stat_t
	dst          *unix.Stat_t // nil: no target to replace
}

func (m *moveCheck) close() {
	m.sdir.Close()
	m.ddir.Close()
}

// checkMove opens both sides of a move and refuses it, changing nothing,
// where Move must: a root, a read-only side, a target that exists without
// overwrite or is of another kind.
func (s *Set) checkMove(src, dst Loc, overwrite bool) (*moveCheck, error) {
	sdir, sbase, sst, err := s.removable(src)
	if err != nil {
		return nil, err
	}
	ddir, dbase, err := dst.parent()
	if err != nil {
		sdir.Close()
		return nil, err
	}
	m := &moveCheck{sdir: sdir, ddir: ddir, sbase: sbase, dbase: dbase, sst: sst}
	if err := m.check(s, src, dst, overwrite); err != nil {
		m.close()
		return nil, err
	}
	return m, nil
}

func (m *moveCheck) check(s *Set, src, dst Loc, overwrite bool) error {
	if dst.dirOnly && m.sst.Mode&unix.S_IFMT != unix.S_IFDIR {
		return tool.Errorf(tool.NotADirectory, "%q ends in \"/\" but %q is not a directory", tool.Clip(dst.Given), tool.Clip(src.Given))
	}
	var dstat unix.Stat_t
	if err := unix.Fstatat(int(m.ddir.Fd()), m.dbase, &dstat, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return nil
	}
	if !overwrite {
		return tool.Errorf(tool.AlreadyExists, "%q already exists", tool.Clip(dst.Given)).
			WithSuggestion("Choose another target, or pass overwrite: true to replace it.")
	}
	if s.holdsRoot(&dstat) {
		return tool.Errorf(tool.PermissionDenied, "%q is an allowed root or holds one; it cannot be replaced", tool.Clip(dst.Given))
	}
	sIsDir, dIsDir := m.sst.Mode&unix.S_IFMT == unix.S_IFDIR, dstat.Mode&unix.S_IFMT == unix.S_IFDIR
	if sIsDir != dIsDir {
		return tool.Errorf(tool.IsDirectory, "cannot replace %q (%s) with %q (%s)", tool.Clip(dst.Given), TypeOfStat(dstat.Mode).Phrase(), tool.Clip(src.Given), TypeOfStat(m.sst.Mode).Phrase())
	}
	m.dst = &dstat
	return nil
}

// Move renames src to dst. Without overwrite an existing dst is refused
// atomically (renameat2 RENAME_NOREPLACE). Across filesystems the tree is
// copied, synced and the source removed, which a source that is or holds a
// mount point refuses before anything is copied. It reports whether it
// copied.
func (s *Set) Move(src, dst Loc, overwrite bool) (bool, error) {
	m, err := s.checkMove(src, dst, overwrite)
	if err != nil {
		return false, err
	}
	defer m.close()
	sdir, sbase, ddir, dbase := m.sdir, m.sbase, m.ddir, m.dbase
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
