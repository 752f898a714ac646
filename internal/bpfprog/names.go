package bpfprog

import (
	"errors"

	"github.com/cilium/ebpf"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// Names are processes' commands as they were at the end of a trace, after
// their last exec, by process id: what a per-process table calls each row.
// A programs keeps them in its names map (bpf/names.h), renamed at
// sched_process_exec, so that a child bash forks is called dd once it runs
// dd, however many calls it made as bash before.
type Names map[uint32]string

// Of is the name of process pid: from the trace, else (a process the names
// map had no room for) from host's procfs while it still runs, else "".
func (n Names) Of(host *hostinfo.Host, pid uint32) string {
	if name, ok := n[pid]; ok {
		return name
	}
	name, _ := host.Comm(int(pid))
	return name
}

// liveHost is host, or the live host when nil: the options of this
// package's tracers may leave their Host out.
func liveHost(host *hostinfo.Host) *hostinfo.Host {
	if host == nil {
		return hostinfo.New(hostinfo.Roots{})
	}
	return host
}

// processNames reads a program's names map.
func processNames(m *ebpf.Map) (Names, error) {
	out := Names{}
	var pid uint32
	var comm [16]byte
	it := m.Iterate()
	for it.Next(&pid, &comm) {
		out[pid] = cstring(comm[:])
	}
	if err := it.Err(); err != nil && !errors.Is(err, ebpf.ErrIterationAborted) {
		return out, err
	}
	return out, nil
}

// renameOnExec attaches a program's on_exec (bpf/names.h).
func renameOnExec(prog *ebpf.Program) attacher {
	return tracepoint("sched", "sched_process_exec", prog)
}
