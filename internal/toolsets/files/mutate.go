package files

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type moveIn struct {
	Source    string `json:"source" jsonschema:"file or directory"`
	Target    string `json:"target" jsonschema:"new path"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace a target of the same kind"`
	DryRun    bool   `json:"dry_run,omitempty"`
}

type moveOut struct {
	OK       bool       `json:"ok" jsonschema:"false for a dry run"`
	Source   string     `json:"source"`
	Target   string     `json:"target"`
	Copied   bool       `json:"copied,omitempty" jsonschema:"true when source and target were on different filesystems: copied, synced, then the source removed"`
	Replaces bool       `json:"replaces,omitempty" jsonschema:"an existing target is (or, dry run, would be) replaced"`
	Entries  int64      `json:"entries" jsonschema:"entries moved, the source itself included"`
	Bytes    int64      `json:"bytes" jsonschema:"bytes of the regular files moved"`
	Plan     *tool.Plan `json:"plan,omitempty"`
}

// moveFacts are what [confirm] conditions on fs_move test.
var moveFacts = []tool.Fact{
	{Name: "replaces", Kind: tool.FactBool, Doc: "it replaces an existing target (overwrite)"},
	{Name: "copies", Kind: tool.FactBool, Doc: "source and target are on different file systems: it copies, then deletes the source"},
	{Name: "entries", Kind: tool.FactNumber, Doc: "entries it moves, the source itself included"},
	{Name: "bytes", Kind: tool.FactNumber, Doc: "bytes of the regular files it moves"},
}

func (s *Set) move() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "fs_move",
		Kind:        tool.Destructive,
		Title:       "Move or rename",
		Description: "Move or rename a file or directory; replaces a target only with overwrite.",
		Facts:       moveFacts,
	}, s.handleMove)
}

func (s *Set) handleMove(ctx context.Context, call *tool.Call, in moveIn) (moveOut, error) {
	roots, release, err := s.roots.ForCall(ctx, call)
	if err != nil {
		return moveOut{}, err
	}
	defer release()
	src, err := roots.Resolve(in.Source)
	if err != nil {
		return moveOut{}, err
	}
	dst, err := roots.Resolve(in.Target)
	if err != nil {
		return moveOut{}, err
	}
	mp, err := roots.PlanMove(src, dst, in.Overwrite)
	if err != nil {
		return moveOut{}, err
	}
	from, err := surveyPath(ctx, call, src, mp.Source, false)
	if err != nil {
		return moveOut{}, err
	}
	now := time.Now()
	out := moveOut{Source: src.Abs(), Target: dst.Abs(), Replaces: mp.Target != nil, Entries: from.entries, Bytes: from.bytes}
	summary := fmt.Sprintf("Move %s to %q", from.what(src.Abs(), mp.Source, now), tool.Clip(dst.Abs()))
	replaced := "none"
	if mp.Target != nil {
		onto, err := surveyPath(ctx, call, dst, mp.Target, false)
		if err != nil {
			return moveOut{}, err
		}
		summary += ", replacing " + onto.what(dst.Abs(), mp.Target, now)
		replaced = onto.state
	}
	if mp.Copies {
		summary += ", copying it to another file system, then deleting the source"
	}
	p := tool.Preview{
		Summary: summary,
		Facts:   map[string]any{"replaces": mp.Target != nil, "copies": mp.Copies, "entries": from.entries, "bytes": from.bytes},
		State:   tool.StateOf(from.state, replaced, mp.Copies),
	}
	if in.DryRun {
		out.Plan, err = call.DryRun(p)
		return out, err
	}
	if err := call.Confirm(p); err != nil {
		return moveOut{}, err
	}
	copied, err := roots.Move(src, dst, in.Overwrite)
	if err != nil {
		return moveOut{}, err
	}
	out.OK, out.Copied = true, copied
	return out, nil
}

type mkdirsIn struct {
	Path    string `json:"path" jsonschema:"directory to create"`
	ExistOK *bool  `json:"exist_ok,omitempty" jsonschema:"accept an existing directory" default:"true"`
	DryRun  bool   `json:"dry_run,omitempty"`
}

type mkdirsOut struct {
	Path        string     `json:"path"`
	Created     bool       `json:"created" jsonschema:"false when it already existed, and on a dry run"`
	WouldCreate []string   `json:"would_create,omitempty" jsonschema:"dry run: the directories it would create, relative to the root, shallowest first"`
	Plan        *tool.Plan `json:"plan,omitempty"`
}

// mkdirsFacts are what [confirm] conditions on fs_mkdirs test.
var mkdirsFacts = []tool.Fact{
	{Name: "creates", Kind: tool.FactNumber, Doc: "directories it creates, missing parents included"},
}

func (s *Set) mkdirs() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "fs_mkdirs",
		Kind:        tool.Mutating,
		Idempotent:  true,
		Title:       "Create directories",
		Description: "Create a directory and its missing parents.",
		Facts:       mkdirsFacts,
	}, s.handleMkdirs)
}

func (s *Set) handleMkdirs(ctx context.Context, call *tool.Call, in mkdirsIn) (mkdirsOut, error) {
	roots, release, err := s.roots.ForCall(ctx, call)
	if err != nil {
		return mkdirsOut{}, err
	}
	defer release()
	loc, err := roots.Resolve(in.Path)
	if err != nil {
		return mkdirsOut{}, err
	}
	existOK := in.ExistOK == nil || *in.ExistOK
	missing, err := loc.PlanMkdirs(existOK)
	if err != nil {
		return mkdirsOut{}, err
	}
	summary := fmt.Sprintf("Create the directory %q", tool.Clip(loc.Abs()))
	switch len(missing) {
	case 0:
		summary += ": it exists, nothing to create"
	case 1:
	default:
		shown := make([]string, len(missing))
		for i, d := range missing {
			shown[i] = tool.Clip(fsroot.ShowName(d))
		}
		summary += " and its missing parents: " + strings.Join(shown, ", ")
	}
	p := tool.Preview{
		Summary: summary,
		Facts:   map[string]any{"creates": len(missing)},
		State:   tool.StateOf(strings.Join(missing, "\x00")),
	}
	out := mkdirsOut{Path: loc.Abs()}
	if in.DryRun {
		out.WouldCreate = missing
		out.Plan, err = call.DryRun(p)
		return out, err
	}
	if err := call.Confirm(p); err != nil {
		return mkdirsOut{}, err
	}
	if out.Created, err = loc.Mkdirs(existOK); err != nil {
		return mkdirsOut{}, err
	}
	return out, nil
}

func octal(m fs.FileMode) string {
	p := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		p |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		p |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		p |= 0o1000
	}
	return fmt.Sprintf("%04o", p)
}
