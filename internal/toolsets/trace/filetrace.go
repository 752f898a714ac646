package trace

import (
	"cmp"
	"context"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// fileIn is perf_file_trace's input (spec 000 section 9.14).
type fileIn struct {
	DurationSeconds int    `json:"duration_seconds,omitempty" default:"10"`
	PID             int    `json:"pid,omitempty" jsonschema:"only this pid"`
	MinLatencyMS    *int   `json:"min_latency_ms,omitempty" jsonschema:"slow_ops threshold" default:"10"`
	Mode            string `json:"mode,omitempty" default:"all"`
	IncludeAllFiles bool   `json:"include_all_files,omitempty" jsonschema:"also sockets, pipes and devices"`
}

type fileOut struct {
	Mode        string      `json:"mode"`
	Mechanisms  []string    `json:"mechanisms"`
	Lost        uint64      `json:"lost" jsonschema:"records a full ring buffer dropped; the counts include them"`
	NotInTables uint64      `json:"not_in_tables" jsonschema:"calls in the totals but in no table row: the kernel's table (16384 rows) was full"`
	SlowTotal   *uint64     `json:"slow_total,omitempty" jsonschema:"slow_ops: reads and writes at least min_latency_ms long"`
	IOByFile    []fileIORow `json:"io_by_file,omitempty" jsonschema:"slow_ops: every read and write counted by file, most time first"`
	IOByFileOf  *listed     `json:"io_by_file_shown,omitempty" jsonschema:"io_by_file: N of M shown, and which"`
	SlowOps     []slowRow   `json:"slow_ops,omitempty" jsonschema:"slow_ops: records of slow calls"`
	SlowOpsOf   *listed     `json:"slow_ops_shown,omitempty" jsonschema:"slow_ops: N of M shown, and which"`
	ShortLived  []lifeRow   `json:"short_lived,omitempty" jsonschema:"file_lifecycle: files created (opened with O_CREAT) and unlinked during the trace, in the order unlinked"`
	ShortOf     *listed     `json:"short_lived_shown,omitempty" jsonschema:"short_lived: N of M shown, and which"`
	OpensTotal  *uint64     `json:"opens_total,omitempty"`
	OpensFailed *uint64     `json:"opens_failed,omitempty"`
	ByPath      []pathRow   `json:"by_path,omitempty" jsonschema:"every open and unlink counted by path and process, with errors by errno; failures first"`
	ByPathOf    *listed     `json:"by_path_shown,omitempty" jsonschema:"by_path: N of M shown, and which"`
	Opens       []openRow   `json:"opens,omitempty" jsonschema:"opens: records of opens"`
	OpensOf     *listed     `json:"opens_shown,omitempty" jsonschema:"opens: N of M shown, and which"`
}

func (s *Set) fileTrace() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_file_trace",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "Trace file operations (eBPF)",
		Description: "File activity (eBPF) by path and process, errors by errno: slow reads and writes, files created and deleted, opens and their results.",
		Timeout:     45 * time.Second,
	}, s.handleFile).WithRange("duration_seconds", 1, 30).WithRange("min_latency_ms", 0, 10000).
		WithEnum("mode", "slow_ops", "file_lifecycle", "opens", "all")
}

func (s *Set) handleFile(ctx context.Context, call *tool.Call, in fileIn) (fileOut, error) {
	if err := s.preflight(""); err != nil {
		return fileOut{}, err
	}
	mode := cmp.Or(in.Mode, "all")
	slowOps, opens, lifecycle := mode == "slow_ops" || mode == "all", mode == "opens" || mode == "all", mode == "file_lifecycle" || mode == "all"
	d := seconds(in.DurationSeconds, 10)
	tgid := uint32(max(in.PID, 0))
	out := fileOut{Mode: mode}
	traces := 1
	if mode == "all" {
		traces = 2 // side by side: slow calls first, then opens and unlinks
	}
	progs := together(call.Elapsed(ctx, d, "tracing file operations"), traces)
	start := clock()
	var g errgroup.Group
	slow := newCollectSlow(start)
	var ioRes bpfprog.FileIOResult
	if slowOps {
		minMS := 10
		if in.MinLatencyMS != nil {
			minMS = *in.MinLatencyMS
		}
		out.Mechanisms = append(out.Mechanisms, bpfprog.FileIOMechanism)
		g.Go(func() error {
			o := bpfprog.FileIOOptions{TGID: tgid, AllFiles: in.IncludeAllFiles, Slow: max(time.Duration(minMS)*time.Millisecond, 1), Host: s.host}
			var err error
			ioRes, err = bpfprog.FileIO(ctx, d, o, progs[0], slow.add)
			return err
		})
	}
	ops := newCollectOps(s.host, start, in.IncludeAllFiles)
	var opsRes bpfprog.FileOpsResult
	if opens || lifecycle {
		out.Mechanisms = append(out.Mechanisms, bpfprog.FileOpsMechanism)
		var err error
		opsRes, err = bpfprog.FileOps(ctx, d, bpfprog.FileOpsOptions{TGID: tgid, AllPaths: in.IncludeAllFiles}, progs[traces-1], ops.add)
		if err != nil {
			g.Wait()
			return fileOut{}, tool.Failed(err)
		}
	}
	if err := g.Wait(); err != nil {
		return fileOut{}, tool.Failed(err)
	}
	var records, tables []cut
	if slowOps {
		slowTotal := ioRes.Read.Slow + ioRes.Write.Slow
		files, _ := ioTables(s.host, ioRes)
		out.SlowTotal, out.Lost = &slowTotal, ioRes.Lost
		out.NotInTables += ioRes.Read.Unkeyed + ioRes.Write.Unkeyed
		out.IOByFile, out.IOByFileOf = files[:min(tableRows, len(files))], &listed{}
		named(s.host, out.IOByFile)
		out.SlowOps, out.SlowOpsOf = slow.records(), &listed{}
		records = append(records, spread(&out.SlowOps, int(slowTotal), out.SlowOpsOf))
		tables = append(tables, head(&out.IOByFile, len(files), ioOrder, out.IOByFileOf))
	}
	if opens || lifecycle {
		out.Lost += opsRes.Lost
	}
	if opens {
		rows, t := ops.pathTable(opsRes)
		out.OpensTotal, out.OpensFailed = &t.opens, &t.failed
		out.NotInTables += t.unkeyed
		out.ByPath, out.ByPathOf = rows[:min(tableRows, len(rows))], &listed{}
		out.Opens, out.OpensOf = ops.records(), &listed{}
		records = append(records, spread(&out.Opens, int(t.opens), out.OpensOf))
		tables = append(tables, head(&out.ByPath, len(rows), pathOrder, out.ByPathOf))
	}
	if lifecycle {
		out.ShortLived, out.ShortOf = ops.shortLived(), &listed{}
		records = append(records, spread(&out.ShortLived, ops.lives.seen, out.ShortOf))
	}
	fitAnswer(&out, call.DataBudget(), records, tables)
	return out, nil
}
