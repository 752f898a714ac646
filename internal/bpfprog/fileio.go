package bpfprog

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/cilium/ebpf"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// FileIOMechanism is how FileIO times calls.
const FileIOMechanism = "eBPF on tracepoints raw_syscalls:sys_enter and raw_syscalls:sys_exit (read, write, pread64, pwrite64, readv, writev; the file from the task's fd table), counted in the kernel by process, file and errno; names after exec from sched:sched_process_exec"

// FileIOOptions select what FileIO traces.
type FileIOOptions struct {
	TGID     uint32        // 0: every process (hostmcp itself never)
	AllFiles bool          // also sockets, pipes and devices, not only regular files
	Slow     time.Duration // calls at least this long are reported one by one; 0: none
	// Host is where slow calls' descriptors are resolved to paths; nil is
	// the live host.
	Host *hostinfo.Host
}

// OpStat is what FileIO counted for reads or for writes.
type OpStat struct {
	Calls, Bytes, Errors uint64
	Micros               Slots  // latency histogram, log2 of microseconds
	Slow                 uint64 // calls at least the threshold long
	Unkeyed              uint64 // calls the per-file table had no room for, counted here only
}

// FileCount is what FileIO counted for one process, operation, result and
// file over the whole trace.
type FileCount struct {
	PID        uint32
	Write      bool
	Errno      uint32 // 0: the calls succeeded
	Dev        uint32 // the file's device, as the kernel encodes it (major<<20 | minor)
	Ino        uint64
	Calls      uint64
	Bytes      uint64
	Total, Max time.Duration
	Slow       uint64
	FD         uint32 // a descriptor the process read or wrote the file by
	Mode       uint32
	Name       string // the file's last path component
	Path       string // its full path if a slow call's record named it, else "" (see FDPath)
}

// FileIOResult is the reads and writes of an interval, counted in the
// kernel, whatever records a full ring lost.
type FileIOResult struct {
	Read, Write OpStat
	Files       []FileCount
	Names       Names
	Lost        uint64 // slow-call records a full ring dropped; still counted above
}

// SlowIO is one read or write call at least the threshold long.
type SlowIO struct {
	Time    time.Duration // since boot
	Latency time.Duration
	Ret     int64 // bytes, or -errno
	PID     uint32
	Write   bool
	FD      uint32
	Mode    uint32 // the inode's mode: type and permissions
	Dev     uint32
	Ino     uint64
	Comm    string
	File    string // the file's name (its last path component)
	Path    string // the full path while the descriptor was still open, else ""
}

// ioRecord mirrors struct io_event (bpf/fileio.bpf.c).
type ioRecord struct {
	TS, LatencyNS uint64
	Ret           int64
	Ino           uint64
	PID, Op, FD   uint32
	Mode, Dev     uint32
	_             uint32
	Comm          [16]byte
	Name          [64]byte
}

// fileKey and fileStat mirror struct file_key and struct file_stat.
type fileKey struct {
	TGID, Op, Err, Dev uint32
	Ino                uint64
}

type fileStat struct {
	Calls, Bytes, TotalNS, MaxNS, Slow uint64
	FD, Mode                           uint32
	Name                               [64]byte
}

// FileIO times file reads and writes for d; slow calls go to onSlow (nil
// when o.Slow is 0) as they are read.
func FileIO(ctx context.Context, d time.Duration, o FileIOOptions, progress Progress, onSlow func(SlowIO)) (FileIOResult, error) {
	minNS := ^uint64(0)
	if o.Slow > 0 {
		minNS = uint64(o.Slow)
	}
	spec, err := loadFileio()
	var objs fileioObjects
	consts := map[string]any{
		"nr_read": nrs.read, "nr_write": nrs.write, "nr_pread": nrs.pread, "nr_pwrite": nrs.pwrite,
		"nr_readv": nrs.readv, "nr_writev": nrs.writev,
		"target_tgid": o.TGID, "self_tgid": selfTGID, "all_files": boolByte(o.AllFiles), "min_ns": minNS,
	}
	if err := load("file I/O", spec, err, consts, &objs); err != nil {
		return FileIOResult{}, err
	}
	defer objs.Close()
	paths := fdPaths{host: liveHost(o.Host), known: map[fdKey]string{}}
	known := map[fileID]string{} // full paths of the files slow calls named
	onRecord := func(b []byte) {
		var r ioRecord
		if onSlow == nil || !decode(b, &r) {
			return
		}
		name := cstring(r.Name[:])
		s := SlowIO{Time: time.Duration(r.TS), Latency: time.Duration(r.LatencyNS), Ret: r.Ret, PID: r.PID,
			Write: r.Op == 1, FD: r.FD, Mode: r.Mode, Dev: r.Dev, Ino: r.Ino, Comm: cstring(r.Comm[:]), File: name, Path: paths.lookup(r.PID, r.FD, name)}
		if id := (fileID{r.Dev, r.Ino}); s.Path != "" && len(known) < maxPathLookups {
			known[id] = s.Path
		}
		onSlow(s)
	}
	err = trace(ctx, d, progress, objs.Events, onRecord,
		renameOnExec(objs.OnExec),
		tracepoint("raw_syscalls", "sys_enter", objs.OnEnter),
		tracepoint("raw_syscalls", "sys_exit", objs.OnExit))
	if err != nil {
		return FileIOResult{}, err
	}
	var res FileIOResult
	if err := objs.Stats.Lookup(uint32(0), &res.Read); err != nil {
		return res, err
	}
	if err := objs.Stats.Lookup(uint32(1), &res.Write); err != nil {
		return res, err
	}
	res.Lost = counter(objs.Lost, 0)
	if res.Files, err = fileCounts(objs.ByFile); err != nil {
		return res, err
	}
	for i := range res.Files {
		res.Files[i].Path = known[fileID{res.Files[i].Dev, res.Files[i].Ino}]
	}
	res.Names, err = processNames(objs.Names)
	return res, err
}

func fileCounts(m *ebpf.Map) ([]FileCount, error) {
	var out []FileCount
	var k fileKey
	var v fileStat
	it := m.Iterate()
	for it.Next(&k, &v) {
		out = append(out, FileCount{PID: k.TGID, Write: k.Op == 1, Errno: k.Err, Dev: k.Dev, Ino: k.Ino,
			Calls: v.Calls, Bytes: v.Bytes, Total: time.Duration(v.TotalNS), Max: time.Duration(v.MaxNS), Slow: v.Slow,
			FD: v.FD, Mode: v.Mode, Name: cstring(v.Name[:])})
	}
	if err := it.Err(); err != nil && !errors.Is(err, ebpf.ErrIterationAborted) {
		return out, err
	}
	return out, nil
}

// fileID is a file by device and inode.
type fileID struct {
	dev uint32
	ino uint64
}

// fdPaths names the files behind slow calls in full. A tracepoint program
// reads only the file's last path component cheaply, so the path comes from
// /proc/PID/fd/FD, read as the record arrives: it is kept only while that
// descriptor still names a file of the same name (a closed or reused one
// gives ""). Lookups are cached by pid, descriptor and name, as a slow file
// is usually slow many times.
type fdPaths struct {
	host  *hostinfo.Host
	known map[fdKey]string
}

type fdKey struct {
	pid, fd uint32
	name    string
}

// maxPathLookups bounds the cache in a trace of very many distinct files.
const maxPathLookups = 4096

func (c fdPaths) lookup(pid, fd uint32, name string) string {
	k := fdKey{pid, fd, name}
	if p, ok := c.known[k]; ok {
		return p
	}
	if len(c.known) >= maxPathLookups || name == "" {
		return ""
	}
	p := FDPath(c.host, pid, fd, name)
	c.known[k] = p
	return p
}

// FDPath is the target of pid's descriptor fd in host's procfs when its
// last component is name (or starts with it: the kernel's tables keep at
// most 63 bytes of a name), else "": the file's full path while the
// process holds it open.
func FDPath(host *hostinfo.Host, pid, fd uint32, name string) string {
	link, err := host.FDTarget(int(pid), int(fd))
	if err != nil || !strings.HasPrefix(link, "/") {
		return "" // closed, or not a path (socket:[...], pipe:[...])
	}
	base := strings.TrimSuffix(link[strings.LastIndexByte(link, '/')+1:], " (deleted)")
	if base == name || len(name) == len(ioRecord{}.Name)-1 && strings.HasPrefix(base, name) {
		return link
	}
	return ""
}
