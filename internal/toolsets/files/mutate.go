package files

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/hostmcp/hostmcp/internal/tool"
)

type moveIn struct {
	Source    string `json:"source" jsonschema:"file or directory"`
	Target    string `json:"target" jsonschema:"new path"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace a target of the same kind"`
}

type moveOut struct {
	OK     bool   `json:"ok"`
	Source string `json:"source"`
	Target string `json:"target"`
	Copied bool   `json:"copied,omitempty" jsonschema:"true when source and target were on different filesystems: copied, synced, then the source removed"`
}

func (s *Set) move() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "fs_move",
		Kind:        tool.Destructive,
		Title:       "Move or rename",
		Description: "Move or rename a file or directory; replaces a target only with overwrite.",
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
	copied, err := roots.Move(src, dst, in.Overwrite)
	if err != nil {
		return moveOut{}, err
	}
	return moveOut{OK: true, Source: src.Abs(), Target: dst.Abs(), Copied: copied}, nil
}

type mkdirsIn struct {
	Path    string `json:"path" jsonschema:"directory to create"`
	ExistOK *bool  `json:"exist_ok,omitempty" jsonschema:"accept an existing directory" default:"true"`
}

type mkdirsOut struct {
	Path    string `json:"path"`
	Created bool   `json:"created" jsonschema:"false when it already existed"`
}

func (s *Set) mkdirs() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "fs_mkdirs",
		Kind:        tool.Mutating,
		Idempotent:  true,
		Title:       "Create directories",
		Description: "Create a directory and its missing parents.",
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
	created, err := loc.Mkdirs(in.ExistOK == nil || *in.ExistOK)
	if err != nil {
		return mkdirsOut{}, err
	}
	return mkdirsOut{Path: loc.Abs(), Created: created}, nil
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
