package trace

import (
	"context"
	"time"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/stacks"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// vfsIn is perf_vfs_latency's input (spec 000 section 9.19).
type vfsIn struct {
	DurationSeconds int  `json:"duration_seconds,omitempty" default:"5"`
	MinLatencyMS    *int `json:"min_latency_ms,omitempty" jsonschema:"list calls this slow" default:"10"`
	PID             int  `json:"pid,omitempty" jsonschema:"only this pid"`
	IncludeAllFiles bool `json:"include_all_files,omitempty" jsonschema:"also sockets, pipes and devices"`
}

type opSummary struct {
	Calls     uint64           `json:"calls"`
	Bytes     uint64           `json:"bytes"`
	Errors    uint64           `json:"errors"`
	Slow      uint64           `json:"slow" jsonschema:"calls at least min_latency_ms long"`
	LatencyUS stacks.Histogram `json:"latency_us" jsonschema:"log2 histogram of microseconds with p50, p95, p99"`
}

type vfsOut struct {
	Mechanism    string      `json:"mechanism"`
	MinLatencyMS int         `json:"min_latency_ms"`
	Read         opSummary   `json:"read"`
	Write        opSummary   `json:"write"`
	SlowTotal    uint64      `json:"slow_total" jsonschema:"calls at least min_latency_ms long"`
	Lost         uint64      `json:"lost" jsonschema:"records a full ring buffer dropped; the counts include them"`
	NotInTables  uint64      `json:"not_in_tables" jsonschema:"calls in read and write but in no table row: the kernel's table (16384 rows) was full"`
	ByFile       []fileIORow `json:"by_file" jsonschema:"every call counted by file, most time first"`
	ByFileOf     listed      `json:"by_file_shown" jsonschema:"by_file: N of M shown, and which"`
	ByProcess    []procIORow `json:"by_process" jsonschema:"every call counted by process, most time first"`
	ByProcessOf  listed      `json:"by_process_shown" jsonschema:"by_process: N of M shown, and which"`
	SlowOps      []slowRow   `json:"slow_ops" jsonschema:"records of slow calls"`
	SlowOpsOf    listed      `json:"slow_ops_shown" jsonschema:"slow_ops: N of M shown, and which"`
}

func (s *Set) vfsLatency() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_vfs_latency",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "File read/write latency (eBPF)",
		Description: "File read and write latency as programs see it (eBPF): percentiles, calls by file and process, sampled slow calls.",
		Timeout:     45 * time.Second,
	}, s.handleVFS).WithRange("duration_seconds", 1, 30).WithRange("min_latency_ms", 0, 10000)
}

func (s *Set) handleVFS(ctx context.Context, call *tool.Call, in vfsIn) (vfsOut, error) {
	if err := s.preflight(""); err != nil {
		return vfsOut{}, err
	}
	d := seconds(in.DurationSeconds, 5)
	minMS := 10
	if in.MinLatencyMS != nil {
		minMS = *in.MinLatencyMS
	}
	slow := newCollectSlow(clock())
	o := bpfprog.FileIOOptions{TGID: uint32(max(in.PID, 0)), AllFiles: in.IncludeAllFiles, Slow: max(time.Duration(minMS)*time.Millisecond, 1), Host: s.host}
	res, err := bpfprog.FileIO(ctx, d, o, call.Elapsed(ctx, d, "timing reads and writes"), slow.add)
	if err != nil {
		return vfsOut{}, tool.Failed(err)
	}
	files, procs := ioTables(s.host, res)
	out := vfsOut{Mechanism: bpfprog.FileIOMechanism, MinLatencyMS: minMS, Read: summary(res.Read), Write: summary(res.Write),
		SlowTotal: res.Read.Slow + res.Write.Slow, Lost: res.Lost, NotInTables: res.Read.Unkeyed + res.Write.Unkeyed,
		ByFile: files[:min(tableRows, len(files))], ByProcess: procs[:min(tableRows, len(procs))], SlowOps: slow.records()}
	named(s.host, out.ByFile)
	records := []cut{spread(&out.SlowOps, int(out.SlowTotal), &out.SlowOpsOf)}
	tables := []cut{head(&out.ByFile, len(files), ioOrder, &out.ByFileOf), head(&out.ByProcess, len(procs), ioOrder, &out.ByProcessOf)}
	fitAnswer(&out, call.DataBudget(), records, tables)
	return out, nil
}

func summary(o bpfprog.OpStat) opSummary {
	return opSummary{Calls: o.Calls, Bytes: o.Bytes, Errors: o.Errors, Slow: o.Slow, LatencyUS: o.Micros.Histogram("latency_us", 0)}
}
