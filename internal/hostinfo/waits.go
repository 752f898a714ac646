package hostinfo

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/hostmcp/hostmcp/internal/procs"
)

// ThreadWait is where a thread is now, from /proc/<pid>/task/<tid>: its
// state letter (R, S, D, I, T...), its wait channel (the function it
// sleeps in, which the kernel picks as the first one outside the
// scheduler's code; "" when it runs or the kernel will not say) and its
// kernel stack from that function outwards (nil when unreadable: it needs
// root).
type ThreadWait struct {
	Comm  string
	State string
	WChan string
	Stack []string
}

// ReadThreadWait reads where thread tid of process pid waits. A vanished
// thread is ErrPIDNotFound.
func (h *Host) ReadThreadWait(pid, tid int) (ThreadWait, error) {
	dir := h.procPath(strconv.Itoa(pid), "task", strconv.Itoa(tid))
	b, err := os.ReadFile(dir + "/stat")
	if errors.Is(err, os.ErrNotExist) {
		return ThreadWait{}, fmt.Errorf("thread %d of pid %d: %w", tid, pid, ErrPIDNotFound)
	}
	if err != nil {
		return ThreadWait{}, fmt.Errorf("reading thread %d of pid %d: %w", tid, pid, err)
	}
	st, err := procs.ParseStat(b)
	if err != nil {
		return ThreadWait{}, err
	}
	w := ThreadWait{Comm: st.Comm, State: st.State}
	if b, err := os.ReadFile(dir + "/wchan"); err == nil {
		w.WChan = parseWchan(b)
	}
	if b, err := os.ReadFile(dir + "/stack"); err == nil {
		w.Stack = parseKernelStack(b)
	}
	return w, nil
}

// parseWchan reads /proc/PID/wchan: a function name, or "0" when the
// thread runs or the kernel hides it (proc(5)).
func parseWchan(b []byte) string {
	s := strings.TrimSpace(string(b))
	if s == "0" {
		return ""
	}
	return s
}

// parseKernelStack reads /proc/PID/stack, "[<0>] anon_pipe_read+0x2ac/0x450"
// per frame, leaf first, into function names (a module's frame ends in
// " [module]", left out).
func parseKernelStack(b []byte) []string {
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		_, fn, ok := strings.Cut(line, "] ")
		if !ok {
			continue
		}
		fn, _, _ = strings.Cut(fn, " ")
		if i := strings.IndexByte(fn, '+'); i > 0 {
			fn = fn[:i]
		}
		if fn != "" {
			out = append(out, fn)
		}
	}
	return out
}

// ReadKallsyms reads /proc/kallsyms, the kernel's symbol table, which
// names the addresses of kernel stacks taken by eBPF programs.
func (h *Host) ReadKallsyms() ([]byte, error) {
	b, err := os.ReadFile(h.procPath("kallsyms"))
	if err != nil {
		return nil, fmt.Errorf("reading kallsyms: %w", err)
	}
	return b, nil
}

// ProcessThreads is the threads of one process, as ReadThreads reads them.
type ProcessThreads struct {
	PID     int
	Threads []ThreadTimes
}

// ReadAllThreads reads the threads of every process; processes that exit
// meanwhile, or whose threads cannot be read, are left out.
func (h *Host) ReadAllThreads() ([]ProcessThreads, error) {
	entries, err := os.ReadDir(h.roots.Proc)
	if err != nil {
		return nil, fmt.Errorf("listing processes: %w", err)
	}
	var out []ProcessThreads
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ts, err := h.ReadThreads(pid, false); err == nil {
			out = append(out, ProcessThreads{PID: pid, Threads: ts})
		}
	}
	return out, nil
}
