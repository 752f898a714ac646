package bpfprog

import (
	"context"
	"errors"
	"time"

	"github.com/cilium/ebpf"
)

// FileOpsMechanism is how FileOps sees opens and unlinks.
const FileOpsMechanism = "eBPF on tracepoints raw_syscalls:sys_enter and raw_syscalls:sys_exit (open, openat, creat, unlink, unlinkat), counted in the kernel by process, path and errno; names after exec from sched:sched_process_exec"

// FileOp is one open or unlink call with its result.
type FileOp struct {
	Time    time.Duration // since boot, when the call was made
	Latency time.Duration
	Ret     int64 // the descriptor (open), 0 (unlink), or -errno
	PID     uint32
	UID     uint32
	Unlink  bool
	Flags   uint32 // open flags (O_*), or unlinkat's flags
	DirFD   int32  // -100 (AT_FDCWD) for paths relative to the working directory
	Comm    string
	Path    string // as the program passed it
}

// PathCount is what FileOps counted for one process, operation, result
// and path over the whole trace.
type PathCount struct {
	PID        uint32
	Unlink     bool
	Errno      uint32 // 0: the calls succeeded
	DirFD      int32
	Path       string // as the program passed it
	Count      uint64
	Total, Max time.Duration
}

// OpTotal is every open (or unlink) of a trace: also those the per-path
// table had no room for (Unkeyed), which it counts here only.
type OpTotal struct {
	Calls, Failed, Unkeyed uint64
}

// FileOpsResult is what FileOps counted in the kernel over the whole trace,
// whatever records a full ring lost.
type FileOpsResult struct {
	Paths          []PathCount
	Opens, Unlinks OpTotal
	Names          Names
	Lost           uint64 // records a full ring dropped; still counted above
}

// pathKey mirrors struct path_key (bpf/fileopen.bpf.c).
type pathKey struct {
	TGID, Op, Err uint32
	DirFD         int32
	Path          [256]byte
}

// fileOpRecord mirrors struct file_event.
type fileOpRecord struct {
	Key           pathKey
	TS, LatencyNS uint64
	Ret           int64
	UID, Flags    uint32
	Comm          [16]byte
}

// FileOpsOptions select what FileOps traces.
type FileOpsOptions struct {
	TGID     uint32 // 0: every process (hostmcp itself never)
	AllPaths bool   // also opens of absolute paths under /proc, /sys and /dev that create nothing
}

// FileOps traces opens and unlinks for d: it counts them in the kernel,
// and hands each record to onOp as it is read.
func FileOps(ctx context.Context, d time.Duration, o FileOpsOptions, progress Progress, onOp func(FileOp)) (FileOpsResult, error) {
	spec, err := loadFileopen()
	var objs fileopenObjects
	consts := map[string]any{
		"nr_open": nrs.open, "nr_openat": nrs.openat, "nr_creat": nrs.creat,
		"nr_unlink": nrs.unlink, "nr_unlinkat": nrs.unlinkat, "target_tgid": o.TGID, "self_tgid": selfTGID,
		"all_paths": boolByte(o.AllPaths),
	}
	if err := load("file open", spec, err, consts, &objs); err != nil {
		return FileOpsResult{}, err
	}
	defer objs.Close()
	onRecord := func(b []byte) {
		var r fileOpRecord
		if !decode(b, &r) {
			return
		}
		onOp(FileOp{Time: time.Duration(r.TS), Latency: time.Duration(r.LatencyNS), Ret: r.Ret, PID: r.Key.TGID, UID: r.UID,
			Unlink: r.Key.Op == 1, Flags: r.Flags, DirFD: r.Key.DirFD, Comm: cstring(r.Comm[:]), Path: cstring(r.Key.Path[:])})
	}
	err = trace(ctx, d, progress, objs.Events, onRecord,
		renameOnExec(objs.OnExec),
		tracepoint("raw_syscalls", "sys_enter", objs.OnEnter),
		tracepoint("raw_syscalls", "sys_exit", objs.OnExit))
	if err != nil {
		return FileOpsResult{}, err
	}
	res := FileOpsResult{Lost: counter(objs.Lost, 0)}
	if err := objs.Totals.Lookup(uint32(0), &res.Opens); err != nil {
		return res, err
	}
	if err := objs.Totals.Lookup(uint32(1), &res.Unlinks); err != nil {
		return res, err
	}
	if res.Paths, err = pathCounts(objs.ByPath); err != nil {
		return res, err
	}
	res.Names, err = processNames(objs.Names)
	return res, err
}

func pathCounts(m *ebpf.Map) ([]PathCount, error) {
	var out []PathCount
	var k pathKey
	var v struct{ Count, TotalNS, MaxNS uint64 }
	it := m.Iterate()
	for it.Next(&k, &v) {
		out = append(out, PathCount{PID: k.TGID, Unlink: k.Op == 1, Errno: k.Err, DirFD: k.DirFD, Path: cstring(k.Path[:]),
			Count: v.Count, Total: time.Duration(v.TotalNS), Max: time.Duration(v.MaxNS)})
	}
	if err := it.Err(); err != nil && !errors.Is(err, ebpf.ErrIterationAborted) {
		return out, err
	}
	return out, nil
}
