package trace

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"
	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/ebpf"
	"github.com/hostmcp/hostmcp/internal/num"
	"github.com/hostmcp/hostmcp/internal/profile"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/toolsets/perf"
)

// slowRow is one read or write at least min_latency_ms long.
type slowRow struct {
	Time      float64 `json:"time_s" jsonschema:"seconds since the trace started"`
	PID       uint32  `json:"pid"`
	Comm      string  `json:"comm"`
	Op        string  `json:"op" jsonschema:"read or write"`
	File      string  `json:"file" jsonschema:"the file's name (last path component)"`
	Path      string  `json:"path,omitempty" jsonschema:"the file's full path, from /proc/PID/fd when the call was seen; absent when the descriptor was closed by then"`
	FileType  string  `json:"file_type"`
	Bytes     int64   `json:"bytes"`
	LatencyMS float64 `json:"latency_ms"`
	Error     string  `json:"error,omitempty"`
}

// collectSlow keeps the first maxRecords slow calls and counts all.
type collectSlow struct {
	start time.Duration
	total int
	rows  []slowRow
	all   []ebpf.SlowIO // for the by-file and by-process tables
}

func (c *collectSlow) add(s ebpf.SlowIO) {
	c.total++
	if len(c.all) < 100_000 {
		c.all = append(c.all, s)
	}
	if len(c.rows) >= maxRecords {
		return
	}
	op := "read"
	if s.Write {
		op = "write"
	}
	row := slowRow{Time: relSeconds(s.Time, c.start), PID: s.PID, Comm: s.Comm, Op: op, File: s.File, Path: s.Path,
		FileType: fileType(s.Mode), LatencyMS: ms(s.Latency), Error: errnoName(s.Ret)}
	if s.Ret >= 0 {
		row.Bytes = s.Ret
	}
	c.rows = append(c.rows, row)
}

func fileType(mode uint32) string {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return "file"
	case unix.S_IFSOCK:
		return "socket"
	case unix.S_IFIFO:
		return "pipe"
	case unix.S_IFCHR:
		return "char device"
	case unix.S_IFBLK:
		return "block device"
	case unix.S_IFDIR:
		return "directory"
	}
	return "other"
}

// vfsIn is perf_vfs_latency's input (spec 000 section 9.19).
type vfsIn struct {
	DurationSeconds int  `json:"duration_seconds,omitempty" default:"5"`
	MinLatencyMS    *int `json:"min_latency_ms,omitempty" jsonschema:"list calls this slow" default:"10"`
	PID             int  `json:"pid,omitempty" jsonschema:"only this pid"`
	IncludeAllFiles bool `json:"include_all_files,omitempty" jsonschema:"also sockets, pipes and devices"`
}

type opSummary struct {
	Calls     uint64            `json:"calls"`
	Bytes     uint64            `json:"bytes"`
	Errors    uint64            `json:"errors"`
	LatencyUS profile.Histogram `json:"latency_us" jsonschema:"log2 histogram of microseconds with p50, p95, p99"`
}

type aggRow struct {
	Key     string  `json:"key" jsonschema:"file name, or pid and command"`
	Count   int     `json:"count"`
	TotalMS float64 `json:"total_ms"`
	MaxMS   float64 `json:"max_ms"`
}

type vfsOut struct {
	Mechanism    string    `json:"mechanism"`
	MinLatencyMS int       `json:"min_latency_ms"`
	Read         opSummary `json:"read"`
	Write        opSummary `json:"write"`
	SlowTotal    int       `json:"slow_total" jsonschema:"calls at least min_latency_ms long"`
	Lost         uint64    `json:"lost" jsonschema:"slow-call records the kernel dropped because the ring buffer was full"`
	ByFile       []aggRow  `json:"by_file" jsonschema:"slow calls by file (its full path where known, else its name), the 20 with most total time"`
	ByProcess    []aggRow  `json:"by_process" jsonschema:"slow calls by process, the 20 with most total time"`
	SlowOps      []slowRow `json:"slow_ops" jsonschema:"in order, at most 500"`
}

func (s *Set) vfsLatency() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_vfs_latency",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "File read/write latency (eBPF)",
		Description: "File read and write latency as programs see it (eBPF): percentiles, slow calls, slow time per file and process.",
		Timeout:     45 * time.Second,
	}, s.handleVFS).WithRange("duration_seconds", 1, 30).WithRange("min_latency_ms", 0, 10000)
}

func (s *Set) handleVFS(ctx context.Context, call *tool.Call, in vfsIn) (vfsOut, error) {
	if err := preflight(""); err != nil {
		return vfsOut{}, err
	}
	d := seconds(in.DurationSeconds, 5)
	minMS := 10
	if in.MinLatencyMS != nil {
		minMS = *in.MinLatencyMS
	}
	slow := &collectSlow{start: clock()}
	o := ebpf.FileIOOptions{TGID: uint32(max(in.PID, 0)), AllFiles: in.IncludeAllFiles, Slow: max(time.Duration(minMS)*time.Millisecond, 1)}
	res, err := ebpf.FileIO(ctx, d, o, progress(ctx, call, d, "timing reads and writes"), slow.add)
	if err != nil {
		return vfsOut{}, failed(err)
	}
	out := vfsOut{Mechanism: ebpf.FileIOMechanism, MinLatencyMS: minMS, Read: summary(res.Read), Write: summary(res.Write),
		SlowTotal: slow.total, Lost: res.Lost, SlowOps: slow.rows}
	if out.SlowOps == nil {
		out.SlowOps = []slowRow{}
	}
	out.ByFile = aggregate(slow.all, func(s ebpf.SlowIO) string { return cmp.Or(s.Path, s.File) })
	out.ByProcess = aggregate(slow.all, func(s ebpf.SlowIO) string { return fmt.Sprintf("%d %s", s.PID, s.Comm) })
	return out, nil
}

func summary(o ebpf.OpStat) opSummary {
	return opSummary{Calls: o.Calls, Bytes: o.Bytes, Errors: o.Errors, LatencyUS: o.Micros.Histogram("latency_us", 0)}
}

// aggregate sums slow calls by key, the 20 with most time first.
func aggregate(calls []ebpf.SlowIO, key func(ebpf.SlowIO) string) []aggRow {
	by := map[string]*aggRow{}
	for _, c := range calls {
		k := key(c)
		r := by[k]
		if r == nil {
			r = &aggRow{Key: k}
			by[k] = r
		}
		r.Count++
		r.TotalMS += ms(c.Latency)
		r.MaxMS = max(r.MaxMS, ms(c.Latency))
	}
	out := make([]aggRow, 0, len(by))
	for _, r := range by {
		r.TotalMS = num.Round3(r.TotalMS)
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b aggRow) int { return cmp.Or(cmp.Compare(b.TotalMS, a.TotalMS), cmp.Compare(a.Key, b.Key)) })
	return out[:min(20, len(out))]
}

// fileIn is perf_file_trace's input (spec 000 section 9.14).
type fileIn struct {
	DurationSeconds int    `json:"duration_seconds,omitempty" default:"10"`
	PID             int    `json:"pid,omitempty" jsonschema:"only this pid"`
	MinLatencyMS    *int   `json:"min_latency_ms,omitempty" jsonschema:"slow_ops threshold" default:"10"`
	Mode            string `json:"mode,omitempty" default:"all"`
	IncludeAllFiles bool   `json:"include_all_files,omitempty" jsonschema:"also sockets, pipes and devices"`
}

type openRow struct {
	Time  float64 `json:"time_s" jsonschema:"seconds since the trace started"`
	PID   uint32  `json:"pid"`
	UID   uint32  `json:"uid"`
	Comm  string  `json:"comm"`
	Path  string  `json:"path" jsonschema:"absolute when hostmcp could resolve it against the process's directory"`
	Flags string  `json:"flags"`
	FD    *int64  `json:"fd,omitempty"`
	Error string  `json:"error,omitempty"`
}

type lifeRow struct {
	Path      string  `json:"path"`
	AgeMS     float64 `json:"age_ms" jsonschema:"from the creating open to the unlink"`
	CreatedBy string  `json:"created_by" jsonschema:"pid and command"`
	DeletedBy string  `json:"deleted_by"`
}

type fileOut struct {
	Mode        string    `json:"mode"`
	Mechanisms  []string  `json:"mechanisms"`
	Lost        uint64    `json:"lost" jsonschema:"records the kernel dropped because a ring buffer was full"`
	SlowTotal   *int      `json:"slow_total,omitempty"`
	SlowOps     []slowRow `json:"slow_ops,omitempty" jsonschema:"slow_ops: in order, at most 500"`
	ShortLived  []lifeRow `json:"short_lived,omitempty" jsonschema:"file_lifecycle: files created (opened with O_CREAT) and unlinked during the trace, at most 500"`
	OpensTotal  *int      `json:"opens_total,omitempty"`
	OpensFailed *int      `json:"opens_failed,omitempty"`
	Opens       []openRow `json:"opens,omitempty" jsonschema:"opens: in order, at most 500"`
}

func (s *Set) fileTrace() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_file_trace",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "Trace file operations (eBPF)",
		Description: "File activity (eBPF): slow reads and writes, files created and deleted, opens with results.",
		Timeout:     45 * time.Second,
	}, s.handleFile).WithRange("duration_seconds", 1, 30).WithRange("min_latency_ms", 0, 10000).
		WithEnum("mode", "slow_ops", "file_lifecycle", "opens", "all")
}

func (s *Set) handleFile(ctx context.Context, call *tool.Call, in fileIn) (fileOut, error) {
	if err := preflight(""); err != nil {
		return fileOut{}, err
	}
	mode := cmp.Or(in.Mode, "all")
	d := seconds(in.DurationSeconds, 10)
	tgid := uint32(max(in.PID, 0))
	out := fileOut{Mode: mode}
	traces := 1
	if mode == "all" {
		traces = 2 // side by side: slow calls first, then opens and unlinks
	}
	progs := together(progress(ctx, call, d, "tracing file operations"), traces)
	start := clock()
	var g errgroup.Group
	slow := &collectSlow{start: start}
	var slowRes ebpf.FileIOResult
	if mode == "slow_ops" || mode == "all" {
		minMS := 10
		if in.MinLatencyMS != nil {
			minMS = *in.MinLatencyMS
		}
		out.Mechanisms = append(out.Mechanisms, ebpf.FileIOMechanism)
		g.Go(func() error {
			o := ebpf.FileIOOptions{TGID: tgid, AllFiles: in.IncludeAllFiles, Slow: max(time.Duration(minMS)*time.Millisecond, 1)}
			var err error
			slowRes, err = ebpf.FileIO(ctx, d, o, progs[0], slow.add)
			return err
		})
	}
	var ops []ebpf.FileOp
	if mode != "slow_ops" {
		out.Mechanisms = append(out.Mechanisms, ebpf.FileOpsMechanism)
		onOp := func(op ebpf.FileOp) {
			if len(ops) < 200_000 {
				op.Path = absPath(op)
				ops = append(ops, op)
			}
		}
		lost, err := ebpf.FileOps(ctx, d, tgid, progs[traces-1], onOp)
		if err != nil {
			g.Wait()
			return fileOut{}, failed(err)
		}
		out.Lost += lost
	}
	if err := g.Wait(); err != nil {
		return fileOut{}, failed(err)
	}
	if mode == "slow_ops" || mode == "all" {
		out.SlowTotal, out.SlowOps, out.Lost = &slow.total, slow.rows, out.Lost+slowRes.Lost
		if out.SlowOps == nil {
			out.SlowOps = []slowRow{}
		}
	}
	if mode == "opens" || mode == "all" {
		out.Opens = []openRow{}
		total, nfailed := 0, 0
		for _, op := range ops {
			if op.Unlink || (!in.IncludeAllFiles && special(op.Path)) {
				continue
			}
			total++
			row := openRow{Time: relSeconds(op.Time, start), PID: op.PID, UID: op.UID, Comm: op.Comm, Path: op.Path, Flags: openFlags(op.Flags), Error: errnoName(op.Ret)}
			if op.Ret < 0 {
				nfailed++
			} else {
				fd := op.Ret
				row.FD = &fd
			}
			if len(out.Opens) < maxRecords {
				out.Opens = append(out.Opens, row)
			}
		}
		out.OpensTotal, out.OpensFailed = &total, &nfailed
	}
	if mode == "file_lifecycle" || mode == "all" {
		out.ShortLived = shortLived(ops)
	}
	return out, nil
}

// absPath resolves a relative path against the process's working directory
// (or the directory descriptor it passed) while the process still runs.
func absPath(op ebpf.FileOp) string {
	if op.Path == "" || filepath.IsAbs(op.Path) {
		return op.Path
	}
	link := fmt.Sprintf("/proc/%d/cwd", op.PID)
	if op.DirFD != unix.AT_FDCWD {
		link = fmt.Sprintf("/proc/%d/fd/%d", op.PID, op.DirFD)
	}
	dir, err := os.Readlink(link)
	if err != nil {
		return op.Path
	}
	return filepath.Join(dir, op.Path)
}

// special paths are the kernel's own filesystems, noise for most questions.
func special(p string) bool {
	for _, prefix := range []string{"/proc/", "/sys/", "/dev/"} {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

// shortLived pairs successful O_CREAT opens with later unlinks of the same
// path.
func shortLived(ops []ebpf.FileOp) []lifeRow {
	created := map[string]ebpf.FileOp{}
	out := []lifeRow{}
	for _, op := range ops {
		if op.Ret < 0 {
			continue
		}
		if !op.Unlink {
			if _, ok := created[op.Path]; !ok && op.Flags&unix.O_CREAT != 0 {
				created[op.Path] = op
			}
			continue
		}
		c, ok := created[op.Path]
		if !ok {
			continue
		}
		delete(created, op.Path)
		if len(out) < maxRecords {
			out = append(out, lifeRow{Path: op.Path, AgeMS: ms(op.Time - c.Time),
				CreatedBy: fmt.Sprintf("%d %s", c.PID, c.Comm), DeletedBy: fmt.Sprintf("%d %s", op.PID, op.Comm)})
		}
	}
	return out
}

// openFlags names the access mode and the flags that matter.
func openFlags(f uint32) string {
	parts := []string{[]string{"O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE"}[f&unix.O_ACCMODE]}
	for _, fl := range []struct {
		bit  uint32
		name string
	}{{unix.O_CREAT, "O_CREAT"}, {unix.O_EXCL, "O_EXCL"}, {unix.O_TRUNC, "O_TRUNC"}, {unix.O_APPEND, "O_APPEND"},
		{unix.O_DIRECTORY, "O_DIRECTORY"}, {unix.O_DIRECT, "O_DIRECT"}, {unix.O_SYNC, "O_SYNC"}, {unix.O_CLOEXEC, "O_CLOEXEC"}} {
		if f&fl.bit == fl.bit {
			parts = append(parts, fl.name)
		}
	}
	return strings.Join(parts, "|")
}

// IOLayers is perf_io_layers' eBPF mode: reads and writes on regular files
// counted in the kernel, for comparison with the block layer.
func IOLayers(ctx context.Context, d time.Duration) (perf.VFSCounts, error) {
	if err := preflight("perf_io_layers with mode procfs"); err != nil {
		return perf.VFSCounts{}, err
	}
	res, err := ebpf.FileIO(ctx, d, ebpf.FileIOOptions{}, nil, nil)
	if err != nil {
		return perf.VFSCounts{}, failed(err)
	}
	return perf.VFSCounts{ReadOps: res.Read.Calls, WriteOps: res.Write.Calls, ReadBytes: res.Read.Bytes, WriteBytes: res.Write.Bytes,
		Mechanism: ebpf.FileIOMechanism}, nil
}
