package bpfprog

import (
	"context"
	"errors"
	"time"

	"github.com/cilium/ebpf"
)

// ExecMechanism is how ExecTrace sees execs.
const ExecMechanism = "eBPF on tracepoints raw_syscalls:sys_enter and raw_syscalls:sys_exit (execve, execveat), counted in the kernel by parent, user, file and errno"

// MaxExecArgs is the most arguments an exec record carries, each cut to
// 127 bytes.
const MaxExecArgs = 20

// ExecEvent is one exec, successful (Ret 0) or failed (-errno).
type ExecEvent struct {
	PID, PPID, UID uint32
	Ret            int32
	Time           time.Duration // since boot (CLOCK_MONOTONIC)
	Comm           string
	Filename       string
	Args           []string
	ArgsTruncated  bool
}

// ExecCount is how many times a parent ran one file as one user, with one
// result, over the whole trace.
type ExecCount struct {
	PPID, UID uint32
	Errno     uint32 // 0: the execs succeeded
	Filename  string
	Count     uint64
	Comm      string // the command the last of them ran as (the parent's, had it failed)
	Parent    string // the parent's command
}

// ExecResult is every exec of a trace, counted in the kernel whatever
// records a full ring lost.
type ExecResult struct {
	Counts  []ExecCount
	Unkeyed uint64 // execs the per-file table had no room for
	Lost    uint64 // records a full ring dropped; counted all the same
}

// execKey mirrors struct exec_key (bpf/exec.bpf.c).
type execKey struct {
	PPID, UID, Err, _ uint32
	Filename          [256]byte
}

// execRecord mirrors struct exec_event.
type execRecord struct {
	Key           execKey
	PID           uint32
	Ret           int32
	TS            uint64
	Argc          uint32
	ArgsTruncated uint32
	Comm          [16]byte
	Args          [MaxExecArgs][128]byte
}

// ExecTrace records execs for d, capturing up to maxArgs arguments each:
// it counts them in the kernel, and hands each record to onEvent as it is
// read. A trace ended by ctx returns its error with what it counted until
// then, so a caller that stops it on purpose still learns what was lost.
func ExecTrace(ctx context.Context, d time.Duration, maxArgs int, progress Progress, onEvent func(ExecEvent)) (ExecResult, error) {
	spec, err := loadExec()
	var objs execObjects
	consts := map[string]any{"nr_execve": nrs.execve, "nr_execveat": nrs.execveat, "max_args": uint32(min(max(maxArgs, 0), MaxExecArgs))}
	if err := load("exec", spec, err, consts, &objs); err != nil {
		return ExecResult{}, err
	}
	defer objs.Close()
	onRecord := func(b []byte) {
		var r execRecord
		if !decode(b, &r) {
			return
		}
		e := ExecEvent{PID: r.PID, PPID: r.Key.PPID, UID: r.Key.UID, Ret: r.Ret, Time: time.Duration(r.TS),
			Comm: cstring(r.Comm[:]), Filename: cstring(r.Key.Filename[:]), ArgsTruncated: r.ArgsTruncated != 0}
		for i := 0; i < int(min(r.Argc, MaxExecArgs)); i++ {
			e.Args = append(e.Args, cstring(r.Args[i][:]))
		}
		onEvent(e)
	}
	traceErr := trace(ctx, d, progress, objs.Events, onRecord,
		tracepoint("raw_syscalls", "sys_enter", objs.OnEnter),
		tracepoint("raw_syscalls", "sys_exit", objs.OnExit))
	res := ExecResult{Lost: counter(objs.Lost, 0), Unkeyed: counter(objs.Unkeyed, 0)}
	var k execKey
	var v struct {
		Count        uint64
		Comm, Parent [16]byte
	}
	it := objs.ByProgram.Iterate()
	for it.Next(&k, &v) {
		res.Counts = append(res.Counts, ExecCount{PPID: k.PPID, UID: k.UID, Errno: k.Err, Filename: cstring(k.Filename[:]),
			Count: v.Count, Comm: cstring(v.Comm[:]), Parent: cstring(v.Parent[:])})
	}
	if err := it.Err(); err != nil && !errors.Is(err, ebpf.ErrIterationAborted) {
		return res, err
	}
	return res, traceErr
}
