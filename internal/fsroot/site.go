package fsroot

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// site is the directory of one file of a transaction, opened through its
// root, and the file's name in it. Every step is a *at system call on the
// open directory, so a directory swapped for a symbolic link once it is
// open changes nothing.
type site struct {
	loc  Loc
	dir  *os.File // nil: the directory does not exist, and neither does any name in it
	base string
}

// openSite opens l's directory, creating it and its parents with create.
// Without create a missing directory is a site where every name is absent:
// recovery of a creation whose directory never came to be.
func openSite(l Loc, create bool) (*site, error) {
	if create {
		if _, err := dirOf(l).Mkdirs(true); err != nil {
			return nil, err
		}
	}
	d, base, err := l.parent()
	if err != nil {
		if !create && errors.Is(err, fs.ErrNotExist) {
			return &site{loc: l, base: path.Base(l.Rel)}, nil
		}
		return nil, err
	}
	return &site{loc: l, dir: d, base: base}, nil
}

// dirOf is the location of the directory l is in, under l's root: Mkdirs
// on it creates l's parents with every check a directory creation gets.
func dirOf(l Loc) Loc {
	d := l
	d.Rel, d.Given = path.Dir(l.Rel), path.Dir(l.Given)
	return d
}

func (s *site) close() {
	if s != nil && s.dir != nil {
		s.dir.Close()
	}
}

func (s *site) fd() int { return int(s.dir.Fd()) }

// fileKey names an entry by its directory's identity and its name.
type fileKey struct {
	dev, ino uint64
	name     string
}

func (s *site) key() (fileKey, error) {
	var st unix.Stat_t
	if err := unix.Fstat(s.fd(), &st); err != nil {
		return fileKey{}, s.failed("inspecting the directory of", err)
	}
	return fileKey{uint64(st.Dev), st.Ino, s.base}, nil
}

// lstat describes name without following it; a missing name is not an error.
func (s *site) lstat(name string) (unix.Stat_t, bool, error) {
	var st unix.Stat_t
	if s.dir == nil {
		return st, false, nil
	}
	err := unix.Fstatat(s.fd(), name, &st, unix.AT_SYMLINK_NOFOLLOW)
	if errors.Is(err, unix.ENOENT) {
		return st, false, nil
	}
	if err != nil {
		return st, false, s.failed("inspecting", err)
	}
	return st, true, nil
}

// sum is the hex SHA-256 of the regular file name, "" when it is missing.
// Anything but a regular file is an error.
func (s *site) sum(name string) (string, bool, error) {
	if s.dir == nil {
		return "", false, nil
	}
	fd, err := unix.Openat(s.fd(), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) {
		return "", false, nil
	}
	if err != nil {
		return "", false, s.failed("reading", err)
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return "", false, s.failed("reading", err)
	}
	if m := fileMode(st.Mode); !m.IsRegular() {
		return "", false, notRegular(s.loc.Given, m)
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", false, s.failed("reading", err)
	}
	return hex.EncodeToString(h.Sum(nil)), true, nil
}

// same reports whether a and b both exist and are one file.
func (s *site) same(a, b string) (bool, error) {
	sa, oka, err := s.lstat(a)
	if err != nil {
		return false, err
	}
	sb, okb, err := s.lstat(b)
	if err != nil {
		return false, err
	}
	return oka && okb && sa.Dev == sb.Dev && sa.Ino == sb.Ino, nil
}

// rename moves from over to; with noReplace an existing to is refused.
func (s *site) rename(from, to string, noReplace bool) error {
	var flags uint
	if noReplace {
		flags = unix.RENAME_NOREPLACE
	}
	return s.failedIf("renaming", unix.Renameat2(s.fd(), from, s.fd(), to, flags))
}

// unlink removes name; a missing one is already removed.
func (s *site) unlink(name string) error {
	if s.dir == nil {
		return nil
	}
	err := unix.Unlinkat(s.fd(), name, 0)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	return s.failedIf("removing", err)
}

// sync makes the directory's entries durable.
func (s *site) sync() error {
	if s == nil || s.dir == nil {
		return nil
	}
	return s.failedIf("syncing the directory of", s.dir.Sync())
}

func (s *site) failed(op string, err error) error {
	e := pathError(op, s.loc.Given, err)
	if e.Code == tool.Internal || e.Code == tool.ExecutionFailed {
		e.Code = tool.WriteFailed
	}
	return e
}

func (s *site) failedIf(op string, err error) error {
	if err == nil {
		return nil
	}
	return s.failed(op, err)
}
