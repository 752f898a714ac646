package search

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path"
	"syscall"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// walker enumerates the regular files under a search root the way ripgrep
// does without --follow: depth first, through the *os.Root, never following
// a symbolic link (links are skipped, as rg skips them), applying filter,
// and entering only the directories the fence lets it (as rg with or
// without --one-file-system).
type walker struct {
	root   *os.Root
	base   string // the search root, relative to root ("." for root itself)
	fence  *fsroot.Fence
	filter filter
	// skipped counts directories that could not be read.
	skipped int
	// ignoreBudget is how many more .gitignore patterns may be compiled;
	// ignoreDropped counts those left out past it.
	ignoreBudget  int
	ignoreDropped int
}

func newWalker(loc fsroot.Loc, fence *fsroot.Fence, f filter) *walker {
	return &walker{root: loc.Root.OS(), base: loc.Rel, fence: fence, filter: f, ignoreBudget: maxIgnorePatterns}
}

// warn tells the call what the walk could not do.
func (w *walker) warn(call *tool.Call) {
	if w.skipped > 0 {
		call.Warn("%d directories could not be read (permission denied or removed during the search)", w.skipped)
	}
	if w.ignoreDropped > 0 {
		call.Warn("%d .gitignore lines were not applied: longer than %d bytes, or past the first %d patterns of this search", w.ignoreDropped, maxPattern, maxIgnorePatterns)
	}
}

// full turns a path relative to the search root into one relative to root.
func (w *walker) full(rel string) string {
	if rel == "" {
		return w.base
	}
	if w.base == "." {
		return rel
	}
	return w.base + "/" + rel
}

// walk calls fn with each file's path relative to the search root; fn
// returning false stops the walk.
func (w *walker) walk(ctx context.Context, fn func(rel string) bool) error {
	_, err := w.dir(ctx, "", nil, fn)
	return err
}

func (w *walker) dir(ctx context.Context, rel string, chain []*ignoreFile, fn func(string) bool) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	d, _, err := w.fence.OpenDir(rel)
	if err != nil {
		w.skipped++
		return true, nil
	}
	if d == nil {
		return true, nil // a mount point: the fence recorded it
	}
	ents, err := d.ReadDir(-1)
	d.Close()
	if err != nil && len(ents) == 0 {
		w.skipped++
		return true, nil
	}
	if !w.filter.noIgnore {
		if ig := w.readIgnore(rel); ig != nil {
			chain = append(chain[:len(chain):len(chain)], ig)
		}
	}
	for _, e := range ents {
		name := e.Name()
		child := name
		if rel != "" {
			child = rel + "/" + name
		}
		t := e.Type()
		switch {
		case t.IsDir():
			if w.filter.skip(child, name, true, chain) {
				continue
			}
			more, err := w.dir(ctx, child, chain, fn)
			if !more || err != nil {
				return more, err
			}
		case t.IsRegular():
			if w.filter.skip(child, name, false, chain) {
				continue
			}
			if !fn(child) {
				return false, nil
			}
		}
	}
	return true, nil
}

// readIgnore reads dir's .gitignore, if it is a regular file of sane size.
func (w *walker) readIgnore(rel string) *ignoreFile {
	p := path.Join(w.full(rel), ".gitignore")
	f, err := w.root.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return nil
	}
	ig, dropped := parseIgnore(rel, data, &w.ignoreBudget)
	w.ignoreDropped += dropped
	return ig
}

// openFile opens a file found by a walk (or reported by rg) through the
// root, refusing anything but a regular file without blocking on it.
func openFile(root *os.Root, full string) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(full, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fs.ErrInvalid
	}
	return f, st, nil
}
