// Package bpftrace is the bpftrace toolset of spec 001, made safe and
// scalable: programs are checked before they run, run in the background
// with a deadline and a capped output buffer, and are read back in pages.
// bpftrace's --unsafe mode is never used.
package bpftrace

import (
	"strings"
	"sync"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/jobs"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Deps are what the bpftrace tools work through.
type Deps struct {
	Exec   *execx.Runner
	Config config.BpftraceConf
}

// Set is the bpftrace toolset. Its runs end with the server.
type Set struct {
	exec *execx.Runner
	conf config.BpftraceConf
	jobs *jobs.Manager

	probesOnce sync.Once
	probes     []string // `bpftrace -l`, read once
	probesErr  error
}

// New builds the bpftrace toolset.
func New(d *Deps) *Set {
	return &Set{exec: d.Exec, conf: d.Config, jobs: jobs.New(jobs.Limits{
		MaxRunning: d.Config.MaxConcurrent, MaxLines: d.Config.MaxLines, Retention: d.Config.Retention.Duration,
	})}
}

// Toolset lists the bpftrace tools.
func (s *Set) Toolset() tool.Toolset {
	return tool.Toolset{
		Name:           "bpftrace",
		Description:    "Run your own bpftrace programs safely: list probes and helpers, run a checked program in the background, page its output, stop it.",
		DefaultEnabled: true,
		Tracing:        true,
		Tools:          []*tool.Def{s.listProbes(), s.listHelpers(), s.execProgram(), s.getResult(), s.stop()},
		Close:          s.jobs.Close,
	}
}

func (s *Set) available() error {
	if s.exec == nil || !s.exec.Available("bpftrace") {
		return tool.Errorf(tool.ToolNotFound, "bpftrace is not installed on this host").
			WithSuggestion("Install it (Debian: apt install bpftrace; scripts/deps.sh does it), or use the perf_* tools.")
	}
	return nil
}

// noise are stderr lines bpftrace prints on every run here that say
// nothing about the program.
func noise(line string) bool {
	return strings.Contains(line, "RLIMIT_MEMLOCK") || strings.Contains(line, "available_filter_functions") || strings.TrimSpace(line) == ""
}
