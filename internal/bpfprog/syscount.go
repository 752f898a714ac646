package bpfprog

import (
	"context"
	"fmt"
	"time"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// SyscountMechanism is how CountSyscalls counts.
const SyscountMechanism = "eBPF on tracepoints raw_syscalls:sys_enter and raw_syscalls:sys_exit; names after exec from sched:sched_process_exec"

// SyscountOptions filter and extend CountSyscalls.
type SyscountOptions struct {
	TGID       uint32 // 0: every process
	Comm       string // "": every command (at most 15 bytes, as the kernel keeps it)
	ErrorsOnly bool   // count failed calls only
	Latency    bool   // time each call
	// Host names the processes the trace had no room to name; nil is the
	// live host.
	Host *hostinfo.Host
}

// SyscallStat is one system call's (or one process's) count.
type SyscallStat struct {
	Count, Errors, TotalNS uint64
}

// ProcessSyscalls is a process's calls and its command at the end of the
// trace, after its last exec.
type ProcessSyscalls struct {
	SyscallStat
	Comm string
}

// SyscallCounts are system calls counted over an interval.
type SyscallCounts struct {
	ByNumber  map[uint32]SyscallStat
	ByProcess map[uint32]ProcessSyscalls // by tgid
	Unkeyed   uint64                     // calls in ByNumber of processes ByProcess had no room for
}

// SyscallName is a system call's name, or its number.
func SyscallName(nr uint32) string {
	if n, ok := syscallNames[nr]; ok {
		return n
	}
	return fmt.Sprintf("syscall_%d", nr)
}

// CountSyscalls counts system calls for d, counted as they return.
func CountSyscalls(ctx context.Context, d time.Duration, o SyscountOptions, progress Progress) (SyscallCounts, error) {
	var comm [16]byte
	copy(comm[:15], o.Comm)
	spec, err := loadSyscount()
	var objs syscountObjects
	consts := map[string]any{"target_tgid": o.TGID, "target_comm": comm, "errors_only": boolByte(o.ErrorsOnly), "latency": boolByte(o.Latency)}
	if err := load("syscall counting", spec, err, consts, &objs); err != nil {
		return SyscallCounts{}, err
	}
	defer objs.Close()
	err = trace(ctx, d, progress, nil, nil,
		renameOnExec(objs.OnExec),
		tracepoint("raw_syscalls", "sys_enter", objs.OnEnter),
		tracepoint("raw_syscalls", "sys_exit", objs.OnExit))
	if err != nil {
		return SyscallCounts{}, err
	}
	out := SyscallCounts{ByNumber: map[uint32]SyscallStat{}, ByProcess: map[uint32]ProcessSyscalls{}, Unkeyed: counter(objs.Unkeyed, 0)}
	var key uint32
	var ns SyscallStat
	it := objs.ByNr.Iterate()
	for it.Next(&key, &ns) {
		out.ByNumber[key] = ns
	}
	if err := it.Err(); err != nil {
		return out, err
	}
	names, err := processNames(objs.Names)
	if err != nil {
		return out, err
	}
	var ps SyscallStat
	it = objs.ByTgid.Iterate()
	for it.Next(&key, &ps) {
		out.ByProcess[key] = ProcessSyscalls{SyscallStat: ps, Comm: names.Of(liveHost(o.Host), key)}
	}
	return out, it.Err()
}
