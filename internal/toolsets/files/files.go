// Package files is the files toolset of spec 003: read, write, list, move,
// delete and create directories, all through the allowed roots of
// internal/fsroot, where the kernel enforces containment.
package files

import (
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Deps are what the files tools work through.
type Deps struct {
	Roots *fsroot.Set
}

// Set is the files toolset.
type Set struct {
	roots *fsroot.Set
	lines *lineIndexCache // fs_read's line indexes of large files
}

// New builds the files toolset.
func New(d *Deps) *Set {
	return &Set{roots: d.Roots, lines: newLineIndexCache(lineIndexBudget)}
}

// Toolset lists the files tools. handle_read, which pages what fs_read and
// fs_list leave in handles, is served by the core toolset.
func (s *Set) Toolset() tool.Toolset {
	return tool.Toolset{
		Name:           "files",
		Description:    "Read, write, list, move and delete files inside the allowed roots.",
		DefaultEnabled: true,
		Tools:          []*tool.Def{s.read(), s.write(), s.list(), s.move(), s.delete(), s.mkdirs()},
	}
}
