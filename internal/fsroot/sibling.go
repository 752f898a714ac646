package fsroot

import (
	"path"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// Base is the last element of the path.
func (l Loc) Base() string { return path.Base(l.Rel) }

// Sibling is the entry name in the same directory as l, under the same
// root (a backup beside a file).
func (l Loc) Sibling(name string) Loc {
	rel, given := name, name
	if d := path.Dir(l.Rel); d != "." {
		rel = d + "/" + name
	}
	if d := path.Dir(l.Given); d != "." {
		given = path.Join(d, name)
	}
	return Loc{Root: l.Root, Rel: rel, Given: given, set: l.set}
}

// dirLoc is the location of the directory l is in.
func (l Loc) dirLoc() Loc {
	d := l
	d.Rel, d.Given, d.dirOnly = path.Dir(l.Rel), path.Dir(l.Given), true
	return d
}

// RemoveFile removes a file or symlink (never a directory) through the root.
func (l Loc) RemoveFile() error {
	return l.inParent("removing", func(dirfd int, base string) error {
		var st unix.Stat_t
		if err := unix.Fstatat(dirfd, base, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			return pathError("inspecting", l.Given, err)
		}
		if st.Mode&unix.S_IFMT == unix.S_IFDIR {
			return tool.Errorf(tool.IsDirectory, "%q is a directory", tool.Clip(l.Given))
		}
		return unix.Unlinkat(dirfd, base, 0)
	})
}
