package ebpf

import (
	"context"
	"time"
)

// FileOpsMechanism is how FileOps sees opens and unlinks.
const FileOpsMechanism = "eBPF on tracepoints raw_syscalls:sys_enter and raw_syscalls:sys_exit (open, openat, creat, unlink, unlinkat)"

// FileOp is one open or unlink call with its result.
type FileOp struct {
	Time   time.Duration // since boot
	Ret    int64         // the descriptor (open), 0 (unlink), or -errno
	PID    uint32
	UID    uint32
	Unlink bool
	Flags  uint32 // open flags (O_*), or unlinkat's flags
	DirFD  int32  // -100 (AT_FDCWD) for paths relative to the working directory
	Comm   string
	Path   string // as the program passed it
}

// fileOpRecord mirrors struct file_event (bpf/fileopen.bpf.c).
type fileOpRecord struct {
	TS                 uint64
	Ret                int64
	PID, UID, Op, Flag uint32
	DirFD              int32
	_                  uint32
	Comm               [16]byte
	Path               [256]byte
}

// FileOps traces opens and unlinks for d, of process tgid or (0) all but
// hostmcp; each goes to onOp as it is read. It returns how many records a
// full ring lost.
func FileOps(ctx context.Context, d time.Duration, tgid uint32, progress Progress, onOp func(FileOp)) (lost uint64, err error) {
	spec, err := loadFileopen()
	var objs fileopenObjects
	consts := map[string]any{
		"nr_open": nrs.open, "nr_openat": nrs.openat, "nr_creat": nrs.creat,
		"nr_unlink": nrs.unlink, "nr_unlinkat": nrs.unlinkat, "target_tgid": tgid, "self_tgid": selfTGID,
	}
	if err := load("file open", spec, err, consts, &objs); err != nil {
		return 0, err
	}
	defer objs.Close()
	onRecord := func(b []byte) {
		var r fileOpRecord
		if !decode(b, &r) {
			return
		}
		onOp(FileOp{Time: time.Duration(r.TS), Ret: r.Ret, PID: r.PID, UID: r.UID, Unlink: r.Op == 1,
			Flags: r.Flag, DirFD: r.DirFD, Comm: cstring(r.Comm[:]), Path: cstring(r.Path[:])})
	}
	err = trace(ctx, d, progress, objs.Events, onRecord,
		tracepoint("raw_syscalls", "sys_enter", objs.OnEnter),
		tracepoint("raw_syscalls", "sys_exit", objs.OnExit))
	return lostRecords(objs.Lost), err
}
