package files

import (
	"context"
	"fmt"
	"strings"
	"time"

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
	Path        string     `json:"path"`
	Deleted     bool       `json:"deleted" jsonschema:"false for a dry run"`
	Type        string     `json:"type" jsonschema:"file, dir, symlink, ...; a symlink is removed, never what it points to"`
	WouldGo     []string   `json:"would_delete,omitempty" jsonschema:"dry run: paths that would be deleted, relative to path (at most 200)"`
	MountPoints []string   `json:"mount_points,omitempty" jsonschema:"dry run: mount points met, relative to path (. for path itself; at most 20); the delete would be refused and remove nothing"`
	TotalPaths  int        `json:"total_paths" jsonschema:"entries deleted, or that a dry run would delete, path included"`
	Bytes       int64      `json:"bytes" jsonschema:"bytes of the regular files deleted, or that a dry run would delete"`
	Plan        *tool.Plan `json:"plan,omitempty"`
}

// deleteFacts are what [confirm] conditions on fs_delete test.
var deleteFacts = []tool.Fact{
	{Name: "recursive", Kind: tool.FactBool, Doc: "it deletes a directory and everything in it"},
	{Name: "entries", Kind: tool.FactNumber, Doc: "entries it deletes, the path itself included"},
	{Name: "bytes", Kind: tool.FactNumber, Doc: "bytes of the regular files it deletes"},
}

func (s *Set) delete() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "fs_delete",
		Kind:        tool.Destructive,
		Idempotent:  false,
		Title:       "Delete a file or directory",
		Description: "Delete a file, symlink or (recursive) tree, never a root or mount point.",
		Facts:       deleteFacts,
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
	if st.IsDir() && !in.Recursive {
		return deleteOut{}, tool.Errorf(tool.IsDirectory, "%q is a directory", tool.Clip(in.Path)).
			WithSuggestion("Pass recursive: true to delete it and everything in it (dry_run: true lists what would go).")
	}
	sv, err := surveyPath(ctx, call, loc, st, in.DryRun)
	if err != nil {
		return deleteOut{}, err
	}
	out := deleteOut{Path: loc.Abs(), Type: fsroot.TypeOf(st.Mode()).Word(), TotalPaths: int(sv.entries), Bytes: sv.bytes}
	p := tool.Preview{
		Summary: "Delete " + sv.what(loc.Abs(), st, time.Now()),
		Facts:   map[string]any{"recursive": sv.isDir, "entries": sv.entries, "bytes": sv.bytes},
		State:   sv.state,
	}
	if in.DryRun {
		out.WouldGo, out.MountPoints = sv.listed, sv.mounts
		warnDryRun(call, sv)
		out.Plan, err = call.DryRun(p)
		return out, err
	}
	if len(sv.mounts) > 0 {
		// Refused whatever a person would say: say so before asking.
		if err := loc.CheckMounts("delete"); err != nil {
			return deleteOut{}, err
		}
	}
	if err := call.Confirm(p); err != nil {
		return deleteOut{}, err
	}
	if err := roots.Remove(loc, in.Recursive); err != nil {
		return deleteOut{}, err
	}
	out.Deleted = true
	return out, nil
}

// warnDryRun warns of what a dry run's answer leaves out, and of the mount
// points that would make the delete refuse and remove nothing.
func warnDryRun(call *tool.Call, sv *survey) {
	if len(sv.mounts) > 0 {
		names := make([]string, len(sv.mounts))
		for i, m := range sv.mounts {
			names[i] = fmt.Sprintf("%q", tool.Clip(m))
		}
		call.Warn("the delete would be refused and remove nothing: a file system is mounted at %s (relative to path); unmount it first (outside hostmcp), or delete around it", strings.Join(names, ", "))
	}
	if n := sv.entries - 1; n > int64(len(sv.listed)) && sv.isDir {
		call.Warn("would_delete shows %d of %d paths", len(sv.listed), n)
	}
}
