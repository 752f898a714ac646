// Package fleet is the fleet toolset (issue 22): one question across many
// hosts, for the hostmcp an agent talks to. fleet_overview ranks the hosts
// by the health their own hostmcp exports to Prometheus; fleet_call runs
// one read-only tool on chosen hosts' hostmcp over streamable HTTP. There
// is no cluster layer: Prometheus is the fleet's store and discovery, and
// each host answers for itself.
package fleet

import (
	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Deps are what the fleet toolset needs.
type Deps struct {
	Config config.FleetConf
	// KindOf tells the kind of a tool this binary has, served or not, so
	// fleet_call can refuse a tool that changes something before asking any
	// host; ok is false for a tool it does not know (a newer host's), which
	// each host's own tools/list then decides.
	KindOf func(name string) (kind tool.Kind, ok bool)
}

// Set is the fleet toolset.
type Set struct {
	cfg    config.FleetConf
	kindOf func(string) (tool.Kind, bool)
	// transport is shared by every call, so connections to the hosts and
	// to Prometheus are kept and reused between calls. It is made by the
	// first call: a server whose agent never asks the fleet pays nothing
	// for it.
	transport *sharedTransport
	// kinds are the hosts' recent word on which tools are read-only.
	kinds remoteKinds
}

// New builds the fleet toolset over its configuration.
func New(d *Deps) *Set {
	kindOf := d.KindOf
	if kindOf == nil {
		kindOf = func(string) (tool.Kind, bool) { return 0, false }
	}
	return &Set{cfg: d.Config, kindOf: kindOf, transport: &sharedTransport{}}
}

// Toolset lists the fleet tools. It is off by default: it reaches other
// hosts, which the operator names in [fleet].
func (s *Set) Toolset() tool.Toolset {
	return tool.Toolset{
		Name:        "fleet",
		Description: "Many hosts: rank them by health from Prometheus, and run one read-only tool on chosen hosts' hostmcp.",
		Tools:       []*tool.Def{s.overview(), s.call()},
		Close:       s.transport.closeIdle,
	}
}
