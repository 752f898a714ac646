// Package core holds the tools every server serves whatever toolsets are
// chosen: handle_read, because any tool's answer may point to a handle.
package core

import (
	"context"

	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// HandleReader is the part of the store handle_read needs.
type HandleReader interface {
	ReadWindow(ctx context.Context, id string, w store.Window) (store.Slice, error)
}

// Set is the core toolset and its dependencies.
type Set struct {
	handles HandleReader
}

// New returns the core toolset over the given handle store.
func New(handles HandleReader) *Set { return &Set{handles: handles} }

// Toolset lists the core tools. It is always enabled: the DESIGN places
// handle_read with the files tools, but a handle returned by perf_snapshot
// must stay readable when only the perf toolset is served.
func (s *Set) Toolset() tool.Toolset {
	return tool.Toolset{
		Name:           "core",
		Description:    "Paging through large results kept as handles.",
		DefaultEnabled: true,
		Tools:          []*tool.Def{s.handleRead()},
	}
}
