package system

import (
	"context"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type snapshotIn struct{}

// snapshotOut is sys_snapshot's answer: the snapshot, and the window its
// CPU figure was measured over, so an agent knows how recent "now" is.
type snapshotOut struct {
	hostinfo.Snapshot
	CPUWindow cpuWindow `json:"cpu_window" jsonschema:"the window cpu_percent and the summary's CPU figure cover"`
}

// cpuWindow says which readings cpu_percent compares.
type cpuWindow struct {
	Start      time.Time `json:"start"`
	End        time.Time `json:"end"`
	Seconds    float64   `json:"seconds" jsonschema:"end minus start"`
	AgeSeconds float64   `json:"age_seconds" jsonschema:"how long before this answer the window ended"`
	Source     string    `json:"source" jsonschema:"sampler: the background sampler's recent readings (it reads every 2 s and keeps about 6 s); first_window: the sampler was idle, so this call started it and waited for its first 100 ms window; call: the call sampled 100 ms itself"`
}

// Sources of the CPU window.
const (
	windowSampler = "sampler"
	windowFirst   = "first_window"
	windowCall    = "call"
)

func (s *Set) snapshot() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "sys_snapshot",
		Kind:        tool.ReadOnly,
		Title:       "System health snapshot",
		Description: "Quick check: CPU over the last few seconds (cpu_window says which), load, memory, swap and disk use; perf_snapshot gives rates, perf_use_check verdicts.",
		Timeout:     5 * time.Second,
	}, s.handleSnapshot)
}

func (s *Set) handleSnapshot(ctx context.Context, call *tool.Call, _ snapshotIn) (snapshotOut, error) {
	var opts hostinfo.SnapshotOptions
	var win cpuWindow
	if s.deps.Sampler != nil {
		w, err := s.deps.Sampler.Window(ctx)
		if err != nil {
			return snapshotOut{}, tool.Wrap(tool.ExecutionFailed, err, "measuring CPU use: %v", err)
		}
		busy := w.Snapshot.CPU.Utilization.Busy
		opts.CPUPercent = &busy
		win = cpuWindow{Start: w.Start, End: w.End, Source: windowSampler}
		if w.Started {
			win.Source = windowFirst
		}
	}
	began := time.Now()
	snap, err := s.deps.Host.Snapshot(ctx, &opts)
	if err != nil {
		return snapshotOut{}, tool.Wrap(tool.ExecutionFailed, err, "taking the snapshot: %v", err)
	}
	if opts.CPUPercent == nil {
		// Host.Snapshot read /proc/stat as it began and once its window
		// had passed: about began to now.
		win = cpuWindow{Start: began, End: time.Now(), Source: windowCall}
	}
	for _, w := range snap.Warnings {
		call.Warn("%s", w)
	}
	snap.Warnings = nil
	win.Seconds = figures.Round2(win.End.Sub(win.Start).Seconds())
	win.AgeSeconds = figures.Round2(max(0, time.Since(win.End).Seconds()))
	return snapshotOut{Snapshot: snap, CPUWindow: win}, nil
}
