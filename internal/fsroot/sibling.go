package fsroot

import (
	"path"

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
	return Loc{Root: l.Root, Rel: rel, Given: given}
}

// RemoveFile removes a file or symlink (never a directory) through the root.
func (l Loc) RemoveFile() error {
	st, err := l.Lstat()
	if err != nil {
		return err
	}
	if st.IsDir() {
		return tool.Errorf(tool.IsDirectory, "%q is a directory", l.Given)
	}
	if err := l.Root.r.Remove(l.Rel); err != nil {
		return pathError("removing", l.Given, err)
	}
	return nil
}
