package ebpf

import (
	"errors"
	"os"
	"strconv"
	"strings"

	"github.com/cilium/ebpf"
)

// Names are processes' commands as they were at the end of a trace, after
// their last exec, by process id: what a per-process table calls each row.
// A programs keeps them in its names map (bpf/names.h), renamed at
// sched_process_exec, so that a child bash forks is called dd once it runs
// dd, however many calls it made as bash before.
type Names map[uint32]string

// Of is the name of process pid: from the trace, else (a process the names
// map had no room for) from /proc while it still runs, else "".
func (n Names) Of(pid uint32) string {
	if name, ok := n[pid]; ok {
		return name
	}
	b, err := os.ReadFile("/proc/" + strconv.FormatUint(uint64(pid), 10) + "/comm")
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(b), "\n")
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
