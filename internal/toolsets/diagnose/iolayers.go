package diagnose

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// ioLayersIn is the input of perf_io_layers (spec 000 section 9.17).
type ioLayersIn struct {
	DurationSeconds int    `json:"duration_seconds,omitempty" default:"10"`
	IncludeDetails  bool   `json:"include_details,omitempty"`
	Mode            string `json:"mode,omitempty" jsonschema:"auto: eBPF if available" default:"auto"`
}

// VFSCounts is what the VFS layer saw over an interval. The procfs mode
// sums /proc/<pid>/io; an eBPF collector counts vfs_read/vfs_write calls.
type VFSCounts struct {
	ReadOps    uint64 `json:"read_ops"`
	WriteOps   uint64 `json:"write_ops"`
	ReadBytes  uint64 `json:"read_bytes"`
	WriteBytes uint64 `json:"write_bytes"`
	Mechanism  string `json:"mechanism" jsonschema:"how they were counted: procfs (/proc/<pid>/io) or the eBPF attach points"`
}

type blockCounts struct {
	ReadOps    uint64 `json:"read_ops"`
	WriteOps   uint64 `json:"write_ops"`
	ReadBytes  uint64 `json:"read_bytes"`
	WriteBytes uint64 `json:"write_bytes"`
}

// processIO is one process's share, for include_details.
type processIO struct {
	PID             int    `json:"pid"`
	Comm            string `json:"comm"`
	VFSReadBytes    uint64 `json:"vfs_read_bytes"`
	VFSWriteBytes   uint64 `json:"vfs_write_bytes"`
	BlockReadBytes  uint64 `json:"block_read_bytes"`
	BlockWriteBytes uint64 `json:"block_write_bytes"`
}

type ioLayersOut struct {
	Mode            string      `json:"mode" jsonschema:"procfs or ebpf"`
	DurationSeconds float64     `json:"duration_seconds"`
	VFS             VFSCounts   `json:"vfs"`
	Block           blockCounts `json:"block" jsonschema:"whole disks, from /proc/diskstats"`
	// Percentages are null when the layer above saw nothing to compare.
	ReadHitRatePercent       *float64    `json:"read_hit_rate_percent" jsonschema:"share of VFS read bytes served without reading the disk (page cache)"`
	WriteCoalesceRatePercent *float64    `json:"write_coalesce_rate_percent" jsonschema:"share of VFS write calls absorbed before the disk (merged or still dirty)"`
	Processes                []processIO `json:"processes,omitempty"`
	Findings                 []string    `json:"findings"`
}

func (s *Set) ioLayers() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_io_layers",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "VFS vs block I/O",
		Description: "VFS reads and writes against what reached the disks: page-cache hit rate and write coalescing.",
		Timeout:     45 * time.Second,
	}, s.handleIOLayers).WithRange("duration_seconds", 1, 30).WithEnum("mode", "auto", "procfs", "ebpf")
}

func (s *Set) handleIOLayers(ctx context.Context, call *tool.Call, in ioLayersIn) (ioLayersOut, error) {
	dur := time.Duration(cmp.Or(in.DurationSeconds, 10)) * time.Second
	mode := cmp.Or(in.Mode, "auto")
	auto := mode == "auto"
	if auto {
		mode = s.autoMode(call)
	}
	before, _, err := s.deps.Host.ReadCounters(nil)
	if err != nil {
		return ioLayersOut{}, tool.Wrap(tool.ExecutionFailed, err, "reading /proc/diskstats: %v", err)
	}
	var out ioLayersOut
	var procBefore map[int]hostinfo.ProcIO
	start := time.Now()
	if mode == "ebpf" {
		out.VFS, err = s.vfsEBPF(ctx, dur)
		if te := tool.AsError(err); auto && err != nil && te.Code == tool.CapabilityMissing {
			call.Warn("eBPF is not available here (%s): measured from procfs instead", te.Message)
			mode, err = "procfs", nil
			start = time.Now()
		} else if err != nil {
			return ioLayersOut{}, err
		}
	}
	if mode == "procfs" {
		if procBefore, _, err = s.deps.Host.ReadAllProcIO(); err != nil {
			return ioLayersOut{}, tool.Wrap(tool.ExecutionFailed, err, "reading /proc/*/io: %v", err)
		}
		if err := call.Wait(ctx, dur, "counting I/O"); err != nil {
			return ioLayersOut{}, err
		}
	}
	after, _, err := s.deps.Host.ReadCounters(nil)
	if err != nil {
		return ioLayersOut{}, tool.Wrap(tool.ExecutionFailed, err, "reading /proc/diskstats: %v", err)
	}
	out.Mode, out.DurationSeconds = mode, figures.Round2(time.Since(start).Seconds())
	if mode == "procfs" {
		procAfter, skipped, err := s.deps.Host.ReadAllProcIO()
		if err != nil {
			return ioLayersOut{}, tool.Wrap(tool.ExecutionFailed, err, "reading /proc/*/io: %v", err)
		}
		var procsIO []processIO
		out.VFS, procsIO = procfsVFS(procBefore, procAfter)
		if in.IncludeDetails {
			out.Processes = procsIO[:min(len(procsIO), 20)]
		}
		if skipped > 0 {
			call.Warn("%d processes could not be read (or exited) and are not counted", skipped)
		}
		call.Warn("procfs mode: VFS bytes include pipes and sockets, and processes that exited during the interval are missed; the hit rate is an estimate")
	}
	br, bw, brb, bwb := after.DiskTotals()
	ar, aw, arb, awb := before.DiskTotals()
	out.Block = blockCounts{ReadOps: br - ar, WriteOps: bw - aw, ReadBytes: brb - arb, WriteBytes: bwb - awb}
	out.ReadHitRatePercent = absorbed(out.Block.ReadBytes, out.VFS.ReadBytes)
	out.WriteCoalesceRatePercent = absorbed(out.Block.WriteOps, out.VFS.WriteOps)
	out.Findings = ioFindings(out)
	return out, nil
}

// autoMode is ebpf when the privilege preflight would let mode ebpf run
// (the same judgement as for a call that asks for it), else procfs, with a
// warning saying what is missing.
func (s *Set) autoMode(call *tool.Call) string {
	if s.deps.Privileges == nil {
		return "ebpf"
	}
	if _, err := s.deps.Privileges.Check("perf_io_layers", json.RawMessage(`{"mode":"ebpf"}`)); err != nil {
		call.Warn("eBPF is not available here (%s): measured from procfs instead", tool.AsError(err).Message)
		return "procfs"
	}
	return "ebpf"
}

// procfsVFS sums the /proc/<pid>/io deltas of processes seen both times,
// and lists them by VFS traffic.
func procfsVFS(before, after map[int]hostinfo.ProcIO) (VFSCounts, []processIO) {
	v := VFSCounts{Mechanism: "procfs"}
	var list []processIO
	for pid, a := range after {
		b, ok := before[pid]
		if !ok || a.RChar < b.RChar || a.WChar < b.WChar { // born meanwhile, or a reused pid
			b = hostinfo.ProcIO{}
		}
		p := processIO{PID: pid, Comm: a.Comm, VFSReadBytes: a.RChar - b.RChar, VFSWriteBytes: a.WChar - b.WChar,
			BlockReadBytes: sub(a.ReadBytes, b.ReadBytes), BlockWriteBytes: sub(a.WriteBytes, b.WriteBytes)}
		v.ReadBytes += p.VFSReadBytes
		v.WriteBytes += p.VFSWriteBytes
		v.ReadOps += sub(a.SyscR, b.SyscR)
		v.WriteOps += sub(a.SyscW, b.SyscW)
		if p.VFSReadBytes+p.VFSWriteBytes+p.BlockReadBytes+p.BlockWriteBytes > 0 {
			list = append(list, p)
		}
	}
	slices.SortFunc(list, func(x, y processIO) int {
		return cmp.Or(cmp.Compare(y.VFSReadBytes+y.VFSWriteBytes, x.VFSReadBytes+x.VFSWriteBytes), cmp.Compare(x.PID, y.PID))
	})
	return v, list
}

func sub(a, b uint64) uint64 {
	if a < b {
		return 0
	}
	return a - b
}

// absorbed is the share of above that did not reach the layer below, in
// percent, or nil when above is zero.
func absorbed(below, above uint64) *float64 {
	if above == 0 {
		return nil
	}
	p := figures.Round1(max(0, 100*(1-float64(below)/float64(above))))
	return &p
}

func ioFindings(out ioLayersOut) []string {
	f := []string{}
	if h := out.ReadHitRatePercent; h != nil && *h < 50 && out.Block.ReadBytes > 10<<20 {
		f = append(f, "most reads go to disk (page cache hit rate under 50%): the working set does not fit in memory, or the reads are direct I/O")
	}
	if out.VFS.ReadBytes == 0 && out.Block.ReadBytes > 0 {
		f = append(f, "disks were read with no VFS reads seen: page faults of mapped files, swap-in or direct I/O")
	}
	if len(f) == 0 {
		f = append(f, "no cache problem seen")
	}
	return f
}
