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
	"syscall"
	"time"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/toolsets/profile/window"
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
	exe  string     // this binary, which perf runs as its workload (package window)
	busy sync.Mutex // one profiler at a time: they perturb each other and the host
}

// New builds the profile toolset.
func New(d *Deps) *Set {
	exe, _ := os.Executable() // without it, recordings answer an error
	s := &Set{deps: *d, exe: exe}
	if s.deps.Host == nil {
		s.deps.Host = hostinfo.New(hostinfo.Roots{})
	}
	return s
}

// Toolset lists the profiling tools.
func (s *Set) Toolset() tool.Toolset {
	return tool.Toolset{
		Name:           "profile",
		Description:    "CPU and off-CPU profiles, scheduler and block I/O latency with perf; profiles kept as artifacts (pprof, flame graph SVG).",
		DefaultEnabled: true,
		Tracing:        true,
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

// workDir is a private directory for perf's data, in the runner's
// temporary directory (the state directory's, in a server), removed by the
// returned function whatever happens (cancellation included).
func (s *Set) workDir() (string, func(), error) {
	dir, err := os.MkdirTemp(s.deps.Exec.TempDir(), "profile-")
	if err != nil {
		return "", nil, tool.Wrap(tool.ExecutionFailed, err, "creating a work directory: %v", err)
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// recordFlags go into every perf recording. --no-buildid-cache: perf would
// copy every binary it sampled, and /proc/kallsyms with the real kernel
// addresses, into $HOME/.debug (hundreds of MB, world-readable); the
// samples are symbolised here and now, from the binaries in place, so no
// cache is needed. --no-buildid: nor are build ids, and collecting them
// would make perf read every sampled binary and copy the vDSO to /tmp
// after the window. --no-bpf-event: perf's thread that watches for BPF
// program loads holds up its exit by up to a second; hostmcp does not
// annotate BPF code.
var recordFlags = []string{"--no-buildid-cache", "--no-buildid", "--no-bpf-event"}

// record runs a perf recording (args, which include recordFlags) for dur,
// reporting progress. perf's workload, which ends the recording, is a
// window (this binary, re-executed) rather than `sleep`: it dies with
// perf, so nothing is left when the server is killed. A cancelled call
// kills perf and the window at once: the data is not wanted.
func (s *Set) record(ctx context.Context, call *tool.Call, dir string, dur time.Duration, what string, args ...string) (execx.Result, error) {
	if s.exe == "" {
		return execx.Result{}, tool.Errorf(tool.ExecutionFailed, "perf needs this program's own path to time its recording, and it is unknown here")
	}
	defer call.ProgressWhile(ctx, dur, what)() // the window times the recording
	args = append(append(args, "--"), window.Args(s.exe, dur, os.Getpid())...)
	res, err := s.deps.Exec.Run(ctx, execx.Cmd{Name: "perf", Args: args, Dir: dir, Env: []string{window.Env + "=1"},
		Timeout: dur + 60*time.Second, MaxOutput: 64 << 20, StopSignal: syscall.SIGKILL})
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

// perfOutput runs a perf subcommand that reads dir's data and returns its
// stdout. It is stopped with SIGINT, on which perf still removes the copy
// of the vDSO it may have made in /tmp.
func (s *Set) perfOutput(ctx context.Context, dir string, args ...string) ([]byte, error) {
	res, err := s.deps.Exec.Run(ctx, execx.Cmd{Name: "perf", Args: args, Dir: dir, Timeout: 2 * time.Minute, MaxOutput: 256 << 20, StopSignal: syscall.SIGINT})
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
