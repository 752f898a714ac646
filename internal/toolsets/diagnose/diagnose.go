// Package diagnose is the toolset configured as "perf" (spec 000 tier 1):
// what the host is and can measure, its USE-method checks and snapshots,
// cgroups, threads, I/O layers and network health, read from procfs, sysfs,
// cgroupfs and hostmcp's eBPF programs. It never runs perf(1), hence its
// name; the toolset's name and its tools' perf_ prefix are a contract with
// clients and stay.
package diagnose

import (
	"github.com/hostmcp/hostmcp/internal/bpfprog"
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
	// EBPFSupported says why eBPF cannot run here, or nil; nil means
	// bpfprog.Supported. Tests give another to play a host without eBPF.
	EBPFSupported func() error
	// Privileges judges the privileged tools for perf_info's report; nil
	// reports none.
	Privileges *privilege.Preflight
	// Baselines keeps the named baselines of perf_snapshot and
	// perf_use_check; nil refuses save_as and compare_to.
	Baselines *store.Store
}

// Set is the toolset configured as perf.
type Set struct {
	deps Deps
}

// New builds the perf toolset.
func New(d *Deps) *Set {
	s := &Set{deps: *d}
	if s.deps.EBPFSupported == nil {
		s.deps.EBPFSupported = bpfprog.Supported
	}
	return s
}

// Toolset lists the perf tools.
func (s *Set) Toolset() tool.Toolset {
	return tool.Toolset{
		Name:           "perf",
		Description:    "Performance troubleshooting from procfs and sysfs: host capabilities and the USE method.",
		DefaultEnabled: true,
		Tracing:        true,
		Tools:          []*tool.Def{s.info(), s.snapshotTool(), s.useCheck(), s.netHealth(), s.cgroupSummary(), s.fdTrace(), s.threadProfile(), s.ioLayers()},
	}
}
