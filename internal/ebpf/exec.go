package ebpf

import (
	"context"
	"time"
)

// ExecMechanism is how ExecTrace sees execs.
const ExecMechanism = "eBPF on tracepoints raw_syscalls:sys_enter and raw_syscalls:sys_exit (execve, execveat)"

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

// execRecord mirrors struct exec_event (bpf/exec.bpf.c).
type execRecord struct {
	PID, PPID, UID uint32
	Ret            int32
	TS             uint64
	Argc           uint32
	ArgsTruncated  uint32
	Comm           [16]byte
	Filename       [256]byte
	Args           [MaxExecArgs][128]byte
}

// ExecTrace records execs for d, capturing up to maxArgs arguments each;
// each goes to onEvent as it is read. It returns how many records a full
// ring lost.
func ExecTrace(ctx context.Context, d time.Duration, maxArgs int, progress Progress, onEvent func(ExecEvent)) (lost uint64, err error) {
	spec, err := loadExec()
	var objs execObjects
	consts := map[string]any{"nr_execve": nrs.execve, "nr_execveat": nrs.execveat, "max_args": uint32(min(max(maxArgs, 0), MaxExecArgs))}
	if err := load("exec", spec, err, consts, &objs); err != nil {
		return 0, err
	}
	defer objs.Close()
	onRecord := func(b []byte) {
		var r execRecord
		if !decode(b, &r) {
			return
		}
		e := ExecEvent{PID: r.PID, PPID: r.PPID, UID: r.UID, Ret: r.Ret, Time: time.Duration(r.TS),
			Comm: cstring(r.Comm[:]), Filename: cstring(r.Filename[:]), ArgsTruncated: r.ArgsTruncated != 0}
		for i := 0; i < int(min(r.Argc, MaxExecArgs)); i++ {
			e.Args = append(e.Args, cstring(r.Args[i][:]))
		}
		onEvent(e)
	}
	err = trace(ctx, d, progress, objs.Events, onRecord,
		tracepoint("raw_syscalls", "sys_enter", objs.OnEnter),
		tracepoint("raw_syscalls", "sys_exit", objs.OnExit))
	return lostRecords(objs.Lost), err
}
