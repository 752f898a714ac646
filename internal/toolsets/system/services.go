package system

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	sdbus "github.com/coreos/go-systemd/v22/dbus"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// unit is one systemd unit as sys_services shows it.
type unit struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	LoadState   string `json:"load_state" jsonschema:"loaded, not-found, masked, error"`
	ActiveState string `json:"active_state" jsonschema:"active, inactive, failed, activating, deactivating"`
	SubState    string `json:"sub_state" jsonschema:"unit-specific: running, exited, dead, failed..."`
}

// unitLister is the part of systemd's D-Bus API sys_services uses, so
// tests can stand in a fake bus for a host without systemd.
type unitLister interface {
	ListUnits(ctx context.Context, states, patterns []string) ([]unit, error)
	Close()
}

// busDialer connects to systemd; nil in Deps means the system bus.
type busDialer func(ctx context.Context) (unitLister, error)

// systemdBus is the real bus through go-systemd.
type systemdBus struct{ conn *sdbus.Conn }

func dialSystemd(ctx context.Context) (unitLister, error) {
	c, err := sdbus.NewSystemConnectionContext(ctx)
	if err != nil {
		return nil, err
	}
	return &systemdBus{conn: c}, nil
}

func (b *systemdBus) ListUnits(ctx context.Context, states, patterns []string) ([]unit, error) {
	us, err := b.conn.ListUnitsByPatternsContext(ctx, states, patterns)
	if err != nil {
		return nil, err
	}
	out := make([]unit, len(us))
	for i, u := range us {
		out[i] = unit{Name: u.Name, Description: u.Description, LoadState: u.LoadState, ActiveState: u.ActiveState, SubState: u.SubState}
	}
	return out, nil
}

func (b *systemdBus) Close() { b.conn.Close() }

type servicesIn struct {
	State      string `json:"state,omitempty" default:"running"`
	Pattern    string `json:"pattern,omitempty" jsonschema:"glob over unit names" default:"*.service"`
	MaxResults int    `json:"max_results,omitempty" default:"100"`
}

type servicesOut struct {
	Units     []unit `json:"units"`
	Total     int    `json:"total" jsonschema:"units that matched"`
	Truncated bool   `json:"truncated" jsonschema:"true when more units matched than max_results"`
	State     string `json:"state"`
	Pattern   string `json:"pattern"`
}

// maxUnitPattern bounds a glob over unit names: systemd's own names are at
// most 256 characters.
const maxUnitPattern = 256

func (s *Set) services() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "sys_services",
		Kind:        tool.ReadOnly,
		Title:       "Services",
		Description: "Systemd units and states (running services by default), by state and name glob.",
		Timeout:     5 * time.Second,
	}, s.handleServices).WithEnum("state", "running", "active", "failed", "all").WithRange("max_results", 1, 1000).
		WithMaxLength("pattern", maxUnitPattern)
}

func (s *Set) handleServices(ctx context.Context, _ *tool.Call, in servicesIn) (servicesOut, error) {
	out := servicesOut{State: cmp.Or(in.State, "running"), Pattern: cmp.Or(in.Pattern, "*.service")}
	if len(out.Pattern) > maxUnitPattern || strings.ContainsAny(out.Pattern, "\x00\n/") {
		return servicesOut{}, tool.Errorf(tool.InvalidArgument, "pattern %q: want a glob over unit names such as nginx* (no '/', at most %d bytes)", tool.Clip(out.Pattern), maxUnitPattern)
	}
	if err := s.systemdRunning(); err != nil {
		return servicesOut{}, err
	}
	bus, err := s.dial(ctx)
	if err != nil {
		return servicesOut{}, tool.Wrap(tool.CapabilityMissing, err, "cannot reach systemd on the system bus: %v", err).
			WithSuggestion("Check that dbus is running (systemctl status dbus); meanwhile proc_list and proc_tree show the running daemons.")
	}
	defer bus.Close()
	var states []string
	if out.State != "all" {
		states = []string{out.State}
	}
	units, err := bus.ListUnits(ctx, states, []string{out.Pattern})
	if err != nil {
		return servicesOut{}, tool.Wrap(tool.ExecutionFailed, err, "listing units: %v", err)
	}
	slices.SortFunc(units, func(a, b unit) int { return strings.Compare(a.Name, b.Name) })
	out.Total = len(units)
	limit := cmp.Or(in.MaxResults, 100)
	if len(units) > limit {
		units, out.Truncated = units[:limit], true
	}
	out.Units = append([]unit{}, units...)
	return out, nil
}

// systemdRunning is sd_booted(3): systemd is the service manager exactly
// when /run/systemd/system is a directory. Without it the bus has no one
// to answer, and saying so beats a D-Bus timeout.
func (s *Set) systemdRunning() error {
	fi, err := os.Stat(s.systemdDir)
	if err == nil && fi.IsDir() {
		return nil
	}
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return tool.Errorf(tool.CapabilityMissing, "systemd is not the service manager on this host (%s is absent), so there are no units to list", s.systemdDir).
			WithSuggestion("Use proc_list (name: nginx, say) or proc_tree to see which daemons run; sys_logs falls back to log files and the kernel log.")
	}
	return tool.Wrap(tool.CapabilityMissing, err, "cannot tell whether systemd runs here: %v", err)
}
