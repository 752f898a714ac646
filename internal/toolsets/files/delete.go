package files

import (
	"context"
	"io/fs"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// dryRunShown bounds the paths a dry run lists in its answer.
const dryRunShown = 200

type deleteIn struct {
	Path      string `json:"path" jsonschema:"file, symlink or directory to delete; absolute, or relative to the first root; never a root itself"`
	Recursive bool   `json:"recursive,omitempty" jsonschema:"delete a directory and everything in it; default false"`
	DryRun    bool   `json:"dry_run,omitempty" jsonschema:"only list what would be deleted; default false"`
}

type deleteOut struct {
	Path       string   `json:"path"`
	Deleted    bool     `json:"deleted" jsonschema:"false for a dry run"`
	Type       string   `json:"type" jsonschema:"file, dir, symlink, ...; a symlink is removed, never what it points to"`
	WouldGo    []string `json:"would_delete,omitempty" jsonschema:"dry run: paths that would be deleted, relative to path (at most 200)"`
	TotalPaths int      `json:"total_paths" jsonschema:"entries deleted, or that a dry run would delete, path included"`
}

func (s *Set) delete() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "fs_delete",
		Kind:        tool.Destructive,
		Idempotent:  false,
		Title:       "Delete a file or directory",
		Description: "Delete a file, symlink or (with recursive) a directory tree inside the allowed roots; dry_run lists what would go; roots are never deleted.",
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
	if st.IsDir() {
		skipped := 0
		err := walk(ctx, loc, 1<<30, func(rel string, _ fs.DirEntry) error {
			out.TotalPaths++
			if in.DryRun && len(out.WouldGo) < dryRunShown {
				out.WouldGo = append(out.WouldGo, rel)
			}
			return nil
		}, &skipped)
		if err != nil {
			return deleteOut{}, err
		}
		if skipped > 0 {
			call.Warn("%d directories could not be read; the count is a lower bound", skipped)
		}
	}
	if in.DryRun {
		if out.TotalPaths-1 > len(out.WouldGo) {
			call.Warn("would_delete shows %d of %d paths", len(out.WouldGo), out.TotalPaths-1)
		}
		return out, nil
	}
	if err := roots.Remove(loc, in.Recursive); err != nil {
		return deleteOut{}, err
	}
	out.Deleted = true
	return out, nil
}
