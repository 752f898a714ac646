// Package catalog knows every toolset built into the binary and builds them
// from the shared mechanisms. It is the registry: docs/tools.md and the
// schema snapshots are generated from it.
package catalog

import (
	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/privilege"
	"github.com/hostmcp/hostmcp/internal/sampler"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/toolsets/bpftrace"
	"github.com/hostmcp/hostmcp/internal/toolsets/core"
	"github.com/hostmcp/hostmcp/internal/toolsets/diagnose"
	"github.com/hostmcp/hostmcp/internal/toolsets/edit"
	"github.com/hostmcp/hostmcp/internal/toolsets/files"
	"github.com/hostmcp/hostmcp/internal/toolsets/fleet"
	"github.com/hostmcp/hostmcp/internal/toolsets/onboarding"
	"github.com/hostmcp/hostmcp/internal/toolsets/proc"
	"github.com/hostmcp/hostmcp/internal/toolsets/profile"
	"github.com/hostmcp/hostmcp/internal/toolsets/repl"
	"github.com/hostmcp/hostmcp/internal/toolsets/search"
	"github.com/hostmcp/hostmcp/internal/toolsets/stats"
	"github.com/hostmcp/hostmcp/internal/toolsets/system"
	"github.com/hostmcp/hostmcp/internal/toolsets/trace"
)

// Deps are the shared mechanisms toolsets are built from.
type Deps struct {
	Config *config.Config
	// Roots are the allowed roots, opened by the caller, which closes
	// them; nil serves none (listing the tools needs no roots).
	Roots *fsroot.Set
	Store *store.Store
	Exec  *execx.Runner
	Host  *hostinfo.Host
	// Sampler reads the host's counters in the background for
	// sys_snapshot (and the server's /metrics); nil makes sys_snapshot
	// sample its own window on each call.
	Sampler *sampler.Sampler
}

// Toolsets builds every toolset, in catalogue order (DESIGN.md section 3),
// with the privilege preflight in front of each tool its table names, each
// tool serving the input schema generated for it at build time
// (inputschemas.go).
func Toolsets(d *Deps) []tool.Toolset {
	sets := inferred(d)
	serveGeneratedInputs(sets)
	return sets
}

// inferred is Toolsets with every input schema served as inference gives
// it, which is what the generated schemas are written from.
func inferred(d *Deps) []tool.Toolset {
	roots := d.Roots // shared by files, search, edit, repl and onboarding
	if roots == nil {
		roots = &fsroot.Set{}
	}
	hasBinary := func(string) bool { return false }
	if d.Exec != nil {
		hasBinary = d.Exec.Available
	}
	pre := privilege.New(d.Host, hasBinary)
	sets := []tool.Toolset{
		core.New(d.Store).Toolset(),
		files.New(&files.Deps{Roots: roots}).Toolset(),
		search.New(&search.Deps{Roots: roots, Exec: d.Exec}).Toolset(),
		edit.New(&edit.Deps{Roots: roots, Journal: fsroot.NewJournal(d.Config.StateDir)}).Toolset(),
		proc.New(&proc.Deps{Host: d.Host, Config: d.Config.Process}).Toolset(),
		repl.New(&repl.Deps{Config: d.Config, Roots: roots}).Toolset(),
		system.New(&system.Deps{Host: d.Host, Sampler: d.Sampler, Exec: d.Exec, LogFiles: d.Config.Process.LogFiles}).Toolset(),
		diagnose.New(&diagnose.Deps{Host: d.Host, Exec: d.Exec, Privileges: pre, Baselines: d.Store}).Toolset(),
		profile.New(&profile.Deps{Host: d.Host, Exec: d.Exec, Store: d.Store}).Toolset(),
		trace.New(d.Host).Toolset(),
		bpftrace.New(&bpftrace.Deps{Exec: d.Exec, Config: d.Config.Bpftrace}).Toolset(),
		stats.New(d.Store).Toolset(),
		onboarding.New(&onboarding.Deps{Roots: roots, Exec: d.Exec}).Toolset(),
	}
	sets = append(sets, fleet.New(&fleet.Deps{Config: d.Config.Fleet, KindOf: kindOf(sets)}).Toolset())
	pre.Guard(sets)
	return sets
}

// kindOf tells fleet_call the kind of every tool of this binary, served or
// not, so that it refuses one that changes something before asking a host.
func kindOf(sets []tool.Toolset) func(string) (tool.Kind, bool) {
	kinds := map[string]tool.Kind{}
	for _, ts := range sets {
		for _, d := range ts.Tools {
			kinds[d.Spec.Name] = d.Spec.Kind
		}
	}
	return func(name string) (tool.Kind, bool) {
		k, ok := kinds[name]
		return k, ok
	}
}
