package fsroot

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// dirFlags open a directory without side effects: O_DIRECTORY makes a
// FIFO or device on the path fail at once instead of blocking the open.
const dirFlags = os.O_RDONLY | syscall.O_DIRECTORY | syscall.O_NONBLOCK | syscall.O_NOCTTY

// parent opens the directory l's entry is in, through the root, and
// checks that the root that directory really lies in may be changed. The
// change is then made relative to the descriptor returned (the *at system
// calls), so what was checked is what is changed, whatever a link on the
// path leads to by then.
func (l Loc) parent() (*os.File, string, error) {
	if l.IsRoot() {
		return nil, "", tool.Errorf(tool.PermissionDenied, "%q is an allowed root; roots are never deleted, moved or replaced", tool.Clip(l.Given)).
			WithSuggestion("Work on entries inside the root instead.")
	}
	dirRel, base := path.Split(l.Rel)
	if dirRel == "" {
		dirRel = "."
	}
	d, err := l.Root.r.OpenFile(path.Clean(dirRel), dirFlags, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, "", tool.Wrap(tool.NotFound, err, "the directory of %q does not exist", tool.Clip(l.Given)).
				WithSuggestion("Create it with fs_mkdirs, or pass create_parents: true where the tool takes it.")
		}
		return nil, "", pathError("opening the directory of", l.Given, err)
	}
	if err := l.writableIn(d); err != nil {
		d.Close()
		return nil, "", err
	}
	return d, base, nil
}

// Writable refuses early a change at l when the nearest existing
// directory at or above it lies in a read-only root. Tools call it before
// work they would otherwise waste; the change itself is checked again on
// the directory it is made in.
func (l Loc) Writable() error {
	d, _, err := l.nearestDir()
	if err != nil {
		return err
	}
	defer d.Close()
	return l.writableIn(d)
}

// nearestDir opens the deepest directory on l's path that exists, l
// itself included, and returns it with the names below it still missing.
func (l Loc) nearestDir() (*os.File, []string, error) {
	var parts []string
	if !l.IsRoot() {
		parts = strings.Split(l.Rel, "/")
	}
	for i := len(parts); i >= 0; i-- {
		prefix := "."
		if i > 0 {
			prefix = strings.Join(parts[:i], "/")
		}
		d, err := l.Root.r.OpenFile(prefix, dirFlags, 0)
		if err == nil {
			return d, parts[i:], nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !(i == len(parts) && errors.Is(err, syscall.ENOTDIR)) {
			return nil, nil, pathError("opening", l.Given, err)
		}
	}
	return nil, nil, tool.Errorf(tool.NotFound, "the root of %q is gone", tool.Clip(l.Given))
}

// mkdirAll creates l as a directory with its missing parents. It opens
// the deepest directory that exists, checks that it may be changed, and
// creates the rest below that descriptor one name at a time without
// following links, so a link swapped in meanwhile cannot redirect what is
// created. It reports whether it created anything.
func (l Loc) mkdirAll() (bool, error) {
	d, missing, err := l.nearestDir()
	if err != nil {
		return false, err
	}
	defer func() { d.Close() }()
	if len(missing) == 0 {
		return false, nil
	}
	if err := l.writableIn(d); err != nil {
		return false, err
	}
	for _, name := range missing {
		if err := unix.Mkdirat(int(d.Fd()), name, 0o755); err != nil && !errors.Is(err, unix.EEXIST) {
			return false, pathError("creating", l.Given, err)
		}
		fd, err := unix.Openat(int(d.Fd()), name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return false, pathError("creating", l.Given, err)
		}
		d.Close()
		d = os.NewFile(uintptr(fd), name)
	}
	return true, nil
}
