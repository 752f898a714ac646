// Package system is the system toolset of spec 002: a compact snapshot of
// the host's health (and, in later work, its services and logs).
package system

import (
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Deps are what the system tools read the host through.
type Deps struct {
	Host *hostinfo.Host
}

// Set is the system toolset.
type Set struct {
	deps Deps
}

// New builds the system toolset.
func New(d *Deps) *Set { return &Set{deps: *d} }

// Toolset lists the system tools.
func (s *Set) Toolset() tool.Toolset {
	return tool.Toolset{
		Name:           "system",
		Description:    "A compact health snapshot of the host: CPU, load, memory and disks.",
		DefaultEnabled: true,
		Tools:          []*tool.Def{s.snapshot()},
	}
}
