package files

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/hostmcp/hostmcp/internal/fsroot"
)

// walk visits the entries below the fence's start to depth, in lexical
// order, through the root: entries come from getdents, so a symbolic link
// is reported as a link and never descended into. Each directory to be
// entered is opened through the fence first, which keeps the walk on the
// start's mount: fn learns with mount that a directory is a mount point the
// walk will not enter (always false when crossing is allowed). fn may
// return fs.SkipDir for a directory and fs.SkipAll to stop; directories
// that cannot be read are counted in skipped.
func walk(ctx context.Context, fence *fsroot.Fence, depth int, fn func(rel string, de fs.DirEntry, mount bool) error, skipped *int) error {
	start, _, err := fence.OpenDir("")
	if err != nil {
		return err
	}
	err = walkDir(ctx, fence, start, "", depth, fn, skipped)
	if errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

// walkDir reads d (and closes it), then visits its entries; rel is d
// relative to the start ("" for the start).
func walkDir(ctx context.Context, fence *fsroot.Fence, d *os.File, rel string, depth int, fn func(string, fs.DirEntry, bool) error, skipped *int) error {
	ents, err := d.ReadDir(-1) // opened through the root: each entry lstat'ed beside d
	d.Close()
	if err != nil && len(ents) == 0 {
		*skipped++
		return nil
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	for _, de := range ents {
		if err := ctx.Err(); err != nil {
			return err
		}
		child := path.Join(rel, de.Name())
		var sub *os.File
		mount := false
		if de.IsDir() && strings.Count(child, "/") < depth {
			var err error
			if sub, mount, err = fence.OpenDir(child); err != nil {
				*skipped++
			}
			mount = mount && sub == nil
		}
		if err := fn(child, de, mount); err != nil {
			if sub != nil {
				sub.Close()
			}
			if errors.Is(err, fs.SkipDir) {
				continue
			}
			return err
		}
		if sub != nil {
			if err := walkDir(ctx, fence, sub, child, depth, fn, skipped); err != nil {
				return err
			}
		}
	}
	return nil
}
