package fsroot

import (
	"errors"
	"maps"
	"os"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// fileID is what the kernel knows a file by. Which root a file is in, and
// so whether it may be changed, is decided from the identities of the
// directories the kernel actually resolved, never from how the caller
// spelled the path: a symbolic link or a bind mount can lead from a
// writable root into a read-only one without the path showing it.
type fileID struct{ dev, ino uint64 }

func idOf(st *unix.Stat_t) fileID { return fileID{dev: uint64(st.Dev), ino: st.Ino} }

// maxClimb bounds the walk up a directory's ancestors: deeper than any
// path the kernel accepts (PATH_MAX is 4096, two bytes per level).
const maxClimb = 2048

// identities is what a set knows of its roots by identity: the roots
// themselves and every directory above one. Nested roots are looked up
// here, as is "does this tree hold a root".
type identities struct {
	roots map[fileID]*Root
	above map[fileID]bool
	// mixed is true when some roots are read-only and others are not; only
	// then can the root a path leads to differ in writability from the
	// root it was resolved against.
	mixed bool
}

// clone copies ids, for a narrowed set that adds roots of its own but
// must still know every configured root: a path in a narrowed root can
// lead into a read-only root the narrowed set does not serve.
func (ids identities) clone() identities {
	return identities{roots: maps.Clone(ids.roots), above: maps.Clone(ids.above), mixed: ids.mixed}
}

// add records r, whose directory is open as dir, and its ancestors.
func (ids *identities) add(r *Root, dir *os.File) error {
	if ids.roots == nil {
		ids.roots, ids.above = map[fileID]*Root{}, map[fileID]bool{}
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(dir.Fd()), &st); err != nil {
		return err
	}
	r.id = idOf(&st)
	if _, dup := ids.roots[r.id]; !dup {
		ids.roots[r.id] = r
	}
	for _, other := range ids.roots {
		if other.ReadOnly != r.ReadOnly {
			ids.mixed = true
		}
	}
	return climb(int(dir.Fd()), func(id fileID) bool {
		if id != r.id {
			ids.above[id] = true
		}
		return false
	})
}

// climb calls visit with the identity of the directory fd and of each of
// its ancestors up to "/", stopping early when visit returns true.
func climb(fd int, visit func(fileID) bool) error {
	cur := -1 // the descriptor this walk opened, closed as it moves up
	defer func() {
		if cur >= 0 {
			unix.Close(cur)
		}
	}()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	for range maxClimb {
		id := idOf(&st)
		if visit(id) {
			return nil
		}
		up, err := unix.Openat(fd, "..", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return err
		}
		if cur >= 0 {
			unix.Close(cur)
		}
		cur, fd = up, up
		if err := unix.Fstat(fd, &st); err != nil {
			return err
		}
		if idOf(&st) == id { // ".." of "/" is "/"
			return nil
		}
	}
	return errors.New("directory nested too deeply")
}

// rootOf returns the innermost root the directory fd lies in, found by
// climbing from it: the first directory on the way up that is a root.
func (ids *identities) rootOf(fd int) (*Root, error) {
	var found *Root
	err := climb(fd, func(id fileID) bool {
		found = ids.roots[id]
		return found != nil
	})
	if err == nil && found == nil {
		err = errors.New("the directory is not below any root (moved away?)")
	}
	return found, err
}

// writableIn refuses a change inside dir, a directory opened through l's
// root, when the root dir really lies in is read-only. The caller then
// makes the change relative to that same descriptor, so what was checked
// is what is changed.
func (l Loc) writableIn(dir *os.File) error {
	if l.set == nil || !l.set.ids.mixed {
		return l.readOnly(l.Root)
	}
	r, err := l.set.ids.rootOf(int(dir.Fd()))
	if err != nil {
		return tool.Wrap(tool.PermissionDenied, err, "%q: cannot tell which root it is in: %v", tool.Clip(l.Given), err).
			WithSuggestion("Retry; if a directory on the path was moved meanwhile, use its new path.")
	}
	return l.readOnly(r)
}

// readOnly is the READ_ONLY refusal when r is a read-only root.
func (l Loc) readOnly(r *Root) error {
	if !r.ReadOnly {
		return nil
	}
	return tool.Errorf(tool.ReadOnlyMode, "path %q is in the read-only root %s", tool.Clip(l.Given), r.Path).
		WithSuggestion("Write inside a writable root; the operator marks roots read-only with :ro.")
}

// holdsRoot reports whether the entry st (not followed if a link) is a
// root or a directory above one: such an entry is never deleted, moved
// away or replaced.
func (s *Set) holdsRoot(st *unix.Stat_t) bool {
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return false
	}
	id := idOf(st)
	return s.ids.roots[id] != nil || s.ids.above[id]
}
