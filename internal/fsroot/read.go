package fsroot

import (
	"io/fs"
	"os"
	"path"
	"syscall"

	"github.com/hostmcp/hostmcp/internal/tool"
)

func notRegular(given string, m fs.FileMode) *tool.Error {
	if m.IsDir() {
		return tool.Errorf(tool.IsDirectory, "%q is a directory", tool.Clip(given)).
			WithSuggestion("Pass a file path; list a directory with fs_list.")
	}
	return tool.Errorf(tool.NotAFile, "%q is %s; only regular files can be read or written", tool.Clip(given), TypeOf(m).Phrase())
}

// OpenRegular opens a regular file for reading. The type is checked with a
// stat through the root before anything is opened, so a FIFO, socket or
// device is refused without an open that could block or have side effects
// (a watchdog device, a tape rewind); the open itself is non-blocking and
// its result is checked again against the stat, so a file swapped in
// between is refused too.
func (l Loc) OpenRegular() (*os.File, fs.FileInfo, error) {
	st, err := l.Root.r.Stat(l.Rel)
	if err != nil {
		return nil, nil, pathError("reading", l.Given, err)
	}
	if !st.Mode().IsRegular() {
		return nil, nil, notRegular(l.Given, st.Mode())
	}
	f, err := l.Root.r.OpenFile(l.Rel, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, pathError("reading", l.Given, err)
	}
	got, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, pathError("reading", l.Given, err)
	}
	if !got.Mode().IsRegular() || !os.SameFile(st, got) {
		f.Close()
		return nil, nil, notRegular(l.Given, got.Mode())
	}
	return f, got, nil
}

// Lstat describes the entry itself, a symbolic link as a link.
func (l Loc) Lstat() (fs.FileInfo, error) {
	st, err := l.Root.r.Lstat(l.Rel)
	if err != nil {
		return nil, pathError("inspecting", l.Given, err)
	}
	return st, nil
}

// Stat describes what the path leads to, following links inside the root.
func (l Loc) Stat() (fs.FileInfo, error) {
	st, err := l.Root.r.Stat(l.Rel)
	if err != nil {
		return nil, pathError("inspecting", l.Given, err)
	}
	return st, nil
}

// OpenDir opens a directory for listing.
func (l Loc) OpenDir() (*os.File, error) {
	st, err := l.Root.r.Stat(l.Rel)
	if err != nil {
		return nil, pathError("listing", l.Given, err)
	}
	if !st.IsDir() {
		return nil, tool.Errorf(tool.NotADirectory, "%q is not a directory", tool.Clip(l.Given)).
			WithSuggestion("Pass a directory; read a file with fs_read.")
	}
	f, err := l.Root.r.Open(l.Rel)
	if err != nil {
		return nil, pathError("listing", l.Given, err)
	}
	return f, nil
}

// Readlink returns a symbolic link's target only when following it stays
// inside the root; otherwise it returns "" so no outside path is named.
// Following the link through the root checks the link as it is now; the
// target read afterwards is checked again by itself, since the link may
// have been swapped between the two looks (an absolute target is never
// shown: the root refuses to follow one; nor a relative one that climbs out
// or does not resolve inside).
func (l Loc) Readlink() string {
	if _, err := l.Root.r.Stat(l.Rel); err != nil {
		return ""
	}
	t, err := l.Root.r.Readlink(l.Rel)
	if err != nil || path.IsAbs(t) {
		return ""
	}
	if _, err := l.Root.r.Stat(path.Join(path.Dir(l.Rel), t)); err != nil {
		return ""
	}
	return t
}

// Child is the location of name inside the directory l.
func (l Loc) Child(name string) Loc {
	rel := name
	if l.Rel != "." {
		rel = l.Rel + "/" + name
	}
	given := l.Given + "/" + name
	if l.Given == "/" {
		given = "/" + name
	}
	return Loc{Root: l.Root, Rel: rel, Given: given, set: l.set}
}
