// Package profile is the profiling toolset of spec 000 tier 2: CPU
// profiles, off-CPU time, scheduler and block I/O latency, recorded with
// the perf binary, summarised, and kept as artifacts (collapsed stacks,
// pprof, flame graph SVG) in the state directory.
package profile

import (
	"context"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Deps are what the profiling tools work through.
type Deps struct {
	Host  *hostinfo.Host
	Exec  *execx.Runner // perf, bpftrace
	Store *store.Store  // artifacts
}

// Set is the profile toolset.
type Set struct {
	deps Deps
	busy sync.Mutex // one profiler at a time: they perturb each other and the host
}

// New builds the profile toolset.
func New(d *Deps) *Set { return &Set{deps: *d} }

// Toolset lists the profiling tools.
func (s *Set) Toolset() tool.Toolset {
	return tool.Toolset{
		Name:           "profile",
		Description:    "CPU and off-CPU profiles, scheduler and block I/O latency with perf; profiles kept as artifacts (pprof, flame graph SVG).",
		DefaultEnabled: true,
		Tools:          []*tool.Def{s.cpuProfile(), s.offCPU(), s.schedLatency(), s.ioLatency(), s.listArtifacts(), s.getArtifact()},
	}
}

// acquire takes the profiler lock or answers PROFILER_BUSY at once.
func (s *Set) acquire() (func(), error) {
	if !s.busy.TryLock() {
		return nil, tool.Errorf(tool.ProfilerBusy, "another profile is running; only one runs at a time").
			WithSuggestion("Wait for it to finish (at most its duration_seconds) and call again.")
	}
	return s.busy.Unlock, nil
}

// needPerf checks that perf can run here.
func (s *Set) needPerf() error {
	if s.deps.Exec == nil || !s.deps.Exec.Available("perf") {
		return tool.Errorf(tool.PerfNotInstalled, "perf is not installed on this host")
	}
	return nil
}

// workDir is a private temporary directory for perf's data, removed by the
// returned function whatever happens (cancellation included).
func workDir() (string, func(), error) {
	dir, err := os.MkdirTemp("", "hostmcp-profile-")
	if err != nil {
		return "", nil, tool.Wrap(tool.ExecutionFailed, err, "creating a work directory: %v", err)
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// runPerf runs perf with args for about dur (perf's own `-- sleep N`
// bounds it), reporting progress; cancellation stops perf at once.
func (s *Set) runPerf(ctx context.Context, call *tool.Call, dir string, dur time.Duration, what string, args ...string) (execx.Result, error) {
	done := make(chan struct{})
	defer close(done)
	go func() {
		start := time.Now()
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				el := time.Since(start)
				call.Progress(ctx, float64(min(el, dur).Milliseconds()), float64(dur.Milliseconds()), what)
				if el >= dur {
					return // what is left is perf writing its data: nothing more to report
				}
			}
		}
	}()
	res, err := s.deps.Exec.Run(ctx, execx.Cmd{Name: "perf", Args: args, Dir: dir, Timeout: dur + 60*time.Second, MaxOutput: 64 << 20})
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	if err != nil {
		return res, tool.Wrap(tool.ExecutionFailed, err, "running perf: %v", err)
	}
	if res.ExitCode != 0 {
		return res, tool.Errorf(tool.ExecutionFailed, "perf %s exited with %d: %s", args[0], res.ExitCode, lastLines(string(res.Stderr), 5))
	}
	return res, nil
}

// perfOutput runs a perf subcommand that reads dir's data and returns its stdout.
func (s *Set) perfOutput(ctx context.Context, dir string, args ...string) ([]byte, error) {
	res, err := s.deps.Exec.Run(ctx, execx.Cmd{Name: "perf", Args: args, Dir: dir, Timeout: 2 * time.Minute, MaxOutput: 256 << 20})
	if err != nil {
		return nil, tool.Wrap(tool.ExecutionFailed, err, "running perf %s: %v", args[0], err)
	}
	if res.ExitCode != 0 {
		return nil, tool.Errorf(tool.ExecutionFailed, "perf %s exited with %d: %s", args[0], res.ExitCode, lastLines(string(res.Stderr), 5))
	}
	return res.Stdout, nil
}

// lastLines is the end of a program's stderr, where its error is.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "; ")
}
