package files

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"strings"

	"github.com/hostmcp/hostmcp/internal/fsroot"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// dryRunShown bounds the paths a dry run lists in its answer.
const dryRunShown = 200

type deleteIn struct {
	Path      string `json:"path" jsonschema:"file or directory"`
	Recursive bool   `json:"recursive,omitempty"`
	DryRun    bool   `json:"dry_run,omitempty"`
}

type deleteOut struct {
	Path        string   `json:"path"`
	Deleted     bool     `json:"deleted" jsonschema:"false for a dry run"`
	Type        string   `json:"type" jsonschema:"file, dir, symlink, ...; a symlink is removed, never what it points to"`
	WouldGo     []string `json:"would_delete,omitempty" jsonschema:"dry run: paths that would be deleted, relative to path (at most 200)"`
	MountPoints []string `json:"mount_points,omitempty" jsonschema:"dry run: mount points met, relative to path (. for path itself; at most 20); the delete would be refused and remove nothing"`
	TotalPaths  int      `json:"total_paths" jsonschema:"entries deleted, or that a dry run would delete, path included"`
}

func (s *Set) delete() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "fs_delete",
		Kind:        tool.Destructive,
		Idempotent:  false,
		Title:       "Delete a file or directory",
		Description: "Delete a file, symlink or (recursive) tree, never a root or mount point.",
	}, s.handleDelete)
}

func (s *Set) handleDelete(ctx context.Context, call *tool.Call, in deleteIn) (deleteOut, error) {
	roots, release, err := s.roots.ForCall(ctx, call)
	if err != nil {
		return deleteOut{}, err
	}
	defer release()
	loc, err := roots.Resolve(in.Path)
	if err != nil {
		return deleteOut{}, err
	}
	if err := roots.CheckRemovable(loc); err != nil {
		return deleteOut{}, err
	}
	st, err := loc.Lstat()
	if err != nil {
		return deleteOut{}, err
	}
	out := deleteOut{Path: loc.Abs(), Type: typeName(st.Mode()), TotalPaths: 1}
	if st.IsDir() && !in.Recursive {
		return deleteOut{}, tool.Errorf(tool.IsDirectory, "%q is a directory", tool.Clip(in.Path)).
			WithSuggestion("Pass recursive: true to delete it and everything in it (dry_run: true lists what would go).")
	}
	if in.DryRun {
		return dryRun(ctx, call, loc, st.IsDir(), out)
	}
	if st.IsDir() {
		if _, err := count(ctx, call, loc, &out, false); err != nil {
			return deleteOut{}, err
		}
	}
	if err := roots.Remove(loc, in.Recursive); err != nil {
		return deleteOut{}, err
	}
	out.Deleted = true
	return out, nil
}

// dryRun lists what a delete would remove, and the mount points that would
// make it refuse: the path itself, or those below it, which the walk does
// not enter.
func dryRun(ctx context.Context, call *tool.Call, loc fsroot.Loc, isDir bool, out deleteOut) (deleteOut, error) {
	mp, err := loc.IsMountPoint()
	if err != nil {
		return deleteOut{}, err
	}
	if mp {
		out.MountPoints = []string{"."}
	} else if isDir {
		if out.MountPoints, err = count(ctx, call, loc, &out, true); err != nil {
			return deleteOut{}, err
		}
	}
	if len(out.MountPoints) > 0 {
		names := make([]string, len(out.MountPoints))
		for i, m := range out.MountPoints {
			names[i] = fmt.Sprintf("%q", tool.Clip(m))
		}
		call.Warn("the delete would be refused and remove nothing: a file system is mounted at %s (relative to path); unmount it first (outside hostmcp), or delete around it", strings.Join(names, ", "))
	}
	if out.TotalPaths-1 > len(out.WouldGo) {
		call.Warn("would_delete shows %d of %d paths", len(out.WouldGo), out.TotalPaths-1)
	}
	return out, nil
}

// count walks the tree below loc on its file system, adding the entries a
// delete would remove to out.TotalPaths and, with list, to out.WouldGo. It
// returns the mount points it did not enter.
func count(ctx context.Context, call *tool.Call, loc fsroot.Loc, out *deleteOut, list bool) ([]string, error) {
	fence, err := loc.Fence(false)
	if err != nil {
		return nil, err
	}
	defer fence.Close()
	skipped := 0
	err = walk(ctx, fence, math.MaxInt, func(rel string, _ fs.DirEntry, mount bool) error {
		if mount {
			return nil
		}
		out.TotalPaths++
		if list && len(out.WouldGo) < dryRunShown {
			out.WouldGo = append(out.WouldGo, fsroot.ShowName(rel))
		}
		return nil
	}, &skipped)
	if err != nil {
		return nil, err
	}
	if skipped > 0 {
		call.Warn("%d directories could not be read; the count is a lower bound", skipped)
	}
	mounts := fence.Skipped()
	for i, m := range mounts {
		mounts[i] = fsroot.ShowName(m)
	}
	return mounts, nil
}
