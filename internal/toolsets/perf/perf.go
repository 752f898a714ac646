// Package perf is the performance toolset of spec 000 tier 1: what the host
// is and can measure, and (in later work) its USE-method checks, all from
// procfs, sysfs and cgroupfs.
package perf

import (
	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/privilege"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Deps are what the perf tools read the host through.
type Deps struct {
	Host *hostinfo.Host
	Exec *execx.Runner // only asked which programs exist; nil means none
	// IOLayersEBPF is perf_io_layers' eBPF mode; nil serves procfs only.
	IOLayersEBPF IOLayersEBPF
	// Privileges judges the privileged tools for perf_info's report; nil
	// reports none.
	Privileges *privilege.Preflight
	// Baselines keeps the named baselines of perf_snapshot and
	// perf_use_check; nil refuses save_as and compare_to.
	Baselines *store.Store
}

// Set is the perf toolset.
type Set struct {
	deps Deps
}

// New builds the perf toolset.
func New(d *Deps) *Set { return &Set{deps: *d} }

// Toolset lists the perf tools.
func (s *Set) Toolset() tool.Toolset {
	return tool.Toolset{
		Name:           "perf",
		Description:    "Performance troubleshooting from procfs and sysfs: host capabilities and the USE method.",
		DefaultEnabled: true,
		Tools:          []*tool.Def{s.info(), s.snapshotTool(), s.useCheck(), s.netHealth(), s.cgroupSummary(), s.fdTrace(), s.threadProfile(), s.ioLayers()},
	}
}
