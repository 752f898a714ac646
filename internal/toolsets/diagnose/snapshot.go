package diagnose

import (
	"context"
	"time"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// snapshotIn is the input of perf_snapshot (spec 000 section 9.2).
type snapshotIn struct {
	IntervalMS       int   `json:"interval_ms,omitempty" default:"1000"`
	IncludePerCPU    bool  `json:"include_per_cpu,omitempty"`
	IncludePerDevice *bool `json:"include_per_device,omitempty" default:"true"`
	IncludePSI       *bool `json:"include_psi,omitempty" default:"true"`
	baselineArgs
}

// snapshotOut is perf_snapshot's data: the snapshot and, when asked, the
// baseline saved or compared with.
type snapshotOut struct {
	hostinfo.PerfSnapshot
	Baseline *health.BaselineResult `json:"baseline,omitempty"`
}

func (s *Set) snapshotTool() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_snapshot",
		Kind:        tool.ReadOnly,
		Title:       "Performance snapshot",
		Description: "Raw rates: CPU, memory, disks, network, TCP, PSI, load, df; perf_use_check judges.",
		Timeout:     15 * time.Second,
	}, s.handleSnapshot).WithRange("interval_ms", minIntervalMS, maxIntervalMS)
}

func (s *Set) handleSnapshot(ctx context.Context, call *tool.Call, in snapshotIn) (snapshotOut, error) {
	job, err := s.startBaseline(ctx, in.baselineArgs)
	if err != nil {
		return snapshotOut{}, err
	}
	snap, err := s.snapshot(ctx, call, interval(in.IntervalMS), in.IncludePerCPU)
	if err != nil {
		return snapshotOut{}, err
	}
	// The baseline keeps and compares the whole snapshot, whatever this
	// answer leaves out.
	base, err := s.finish(ctx, call, job, snap)
	if err != nil {
		return snapshotOut{}, err
	}
	if in.IncludePerDevice != nil && !*in.IncludePerDevice {
		snap.IO.Devices = []hostinfo.IODevice{}
	}
	if in.IncludePSI != nil && !*in.IncludePSI {
		snap.Pressure = nil
	} else if snap.Pressure == nil {
		call.Warn("no pressure stall information: the kernel lacks PSI (before 4.20, or booted with psi=0)")
	}
	return snapshotOut{PerfSnapshot: snap, Baseline: base}, nil
}
