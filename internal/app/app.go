// Package app wires a configuration into a running hostmcp: it opens the
// store, resolves the allowlisted programs, builds the toolsets and the
// server. cmd/hostmcp stays a thin parser of arguments on top of it.
package app

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/catalog"
	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/sampler"
	"github.com/hostmcp/hostmcp/internal/server"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Programs are the executables any toolset may run, resolved to absolute
// paths at start-up. Toolsets still choose their own argv; nothing else can
// be started.
var Programs = []string{"perf", "bpftrace", "bpftool", "rg", "journalctl", "systemctl", "git"}

// App is an opened hostmcp.
type App struct {
	Config *config.Config
	Store  *store.Store
	Server *server.Server
	// Exec runs the allowlisted programs; doctor reports where it found
	// each.
	Exec *execx.Runner

	toolsets []tool.Toolset
	roots    *fsroot.Set // opened once here, shared by the file toolsets
	sampler  *sampler.Sampler
	children childDirs
	log      *slog.Logger

	// stopSweep and sweepers end the sweeper goroutines before Close
	// releases the store they sweep.
	stopSweep context.CancelFunc
	sweepers  sync.WaitGroup
}

// Open builds everything the configuration asks for. Close releases it.
func Open(ctx context.Context, cfg *config.Config, version string, log *slog.Logger) (*App, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	harden(log)
	// The roots first: one the operator named but that cannot be opened
	// stops start-up before anything is created in the state directory.
	roots, err := fsroot.FromConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("opening the allowed roots: %w", err)
	}
	st, err := store.Open(ctx, &store.Options{
		Path:         filepath.Join(cfg.StateDir, "hostmcp.db"),
		HandleTTL:    cfg.Store.HandleTTL.Duration,
		HandleBudget: cfg.Store.HandleBudgetBytes,
		MaxCalls:     cfg.Store.CallRetention,
		Logger:       log,
	})
	if err != nil {
		roots.Close()
		return nil, fmt.Errorf("opening the state store in %s: %w", cfg.StateDir, err)
	}
	recoverEdits(cfg, roots, log)
	children, err := makeChildDirs(cfg.StateDir)
	if err != nil {
		st.Close()
		roots.Close()
		return nil, fmt.Errorf("preparing the state directory for child programs: %w", err)
	}
	if err := children.sweepTmp(time.Now()); err != nil {
		log.Warn("removing stale work files", "err", err)
	}
	load := server.NewAdmission(cfg)
	ex, err := execx.New(&execx.Options{Allowed: Programs, ExtraPath: cfg.Exec.ExtraPath, Home: children.Home, TempDir: children.Tmp, Programs: load.Programs()})
	if err != nil {
		st.Close()
		roots.Close()
		return nil, fmt.Errorf("resolving programs: %w", err)
	}
	for _, w := range fsroot.Warnings(cfg.Roots, fsroot.ProtectedHardlinks()) {
		log.Warn(w)
	}
	deps := &catalog.Deps{Config: cfg, Roots: roots, Store: st, Exec: ex, Host: Host(cfg)}
	// One sampler for sys_snapshot and /metrics; it reads nothing until
	// one of them asks.
	deps.Sampler = sampler.New(deps.Host, nil)
	a := &App{Config: cfg, Store: st, Exec: ex, toolsets: catalog.Toolsets(deps), roots: roots, sampler: deps.Sampler, children: children, log: log}
	a.Server, err = server.New(server.Options{
		Config:    cfg,
		Store:     st,
		Version:   version,
		Logger:    log,
		Toolsets:  a.toolsets,
		Admission: load,
		Sampler:   deps.Sampler,
	})
	if err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// MountTracefs mounts tracefs where none is mounted and a served toolset
// traces (eBPF tools, bpftrace), saying so in the log: once, at start-up,
// never inside a capability check. The commands that serve or run tools
// call it; doctor does not, so that it reports the host as it found it.
func (a *App) MountTracefs() {
	if !slices.ContainsFunc(a.Server.Toolsets(), func(ts tool.Toolset) bool { return ts.Tracing }) {
		return
	}
	mounted, err := bpfprog.MountTracefs()
	switch {
	case err != nil:
		a.log.Warn("the eBPF and bpftrace tools cannot find tracepoints", "err", err)
	case mounted:
		a.log.Info("mounted tracefs at /sys/kernel/tracing: none was mounted, and the tracing tools find tracepoints there")
	}
}

// RunSweeper expires handles, and removes stale work files of child
// programs, in the background until ctx ends. The store's first sweep (a
// restart may find a backlog) waits until the tools are registered: it
// opens a second database connection and would share the CPUs with the
// initialize answer for nothing a first call needs (reads check expiry
// themselves).
func (a *App) RunSweeper(ctx context.Context) {
	ctx, a.stopSweep = context.WithCancel(ctx)
	a.sweepers.Go(func() {
		select {
		case <-a.Server.ToolsReady():
			a.Store.RunSweeper(ctx, sweepEvery)
		case <-ctx.Done():
		}
	})
	a.sweepers.Go(func() {
		t := time.NewTicker(sweepEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				if err := a.children.sweepTmp(now); err != nil {
					a.log.Warn("removing stale work files", "err", err)
				}
			}
		}
	})
}

// Close ends what the toolsets keep running (sessions, jobs), the sampler
// and the sweepers, then releases the store and the roots. The sweepers end
// first among what uses the store: the first call of a short session wakes
// the store's sweeper, which would otherwise sweep a closed database.
func (a *App) Close() error {
	for _, ts := range a.toolsets {
		if ts.Close != nil {
			ts.Close()
		}
	}
	a.sampler.Close()
	if a.stopSweep != nil {
		a.stopSweep()
	}
	a.sweepers.Wait()
	err := a.Store.Close()
	a.roots.Close()
	return err
}
