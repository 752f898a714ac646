package hostinfo

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/hostmcp/hostmcp/internal/procs"
)

// ThreadTimes is one thread's cumulative CPU time from /proc/<pid>/task/<tid>/stat.
type ThreadTimes struct {
	TID       int
	Comm      string
	State     string
	UTime     uint64 // clock ticks in user mode
	STime     uint64 // clock ticks in kernel mode
	Processor int    // CPU it last ran on

	// From /proc/<pid>/task/<tid>/schedstat, when asked for and present
	// (CONFIG_SCHED_INFO): nanoseconds on a CPU and runnable but waiting
	// for one, since the thread started.
	Schedstat       bool
	OnCPUNS, RunqNS uint64
}

// parseSchedstat reads a schedstat line: time on a CPU and time waiting on
// a run queue, in nanoseconds, then the number of timeslices.
func parseSchedstat(b []byte) (onCPU, runq uint64, err error) {
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, 0, fmt.Errorf("schedstat %q: want at least 2 fields", b)
	}
	if onCPU, err = strconv.ParseUint(f[0], 10, 64); err == nil {
		runq, err = strconv.ParseUint(f[1], 10, 64)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("schedstat %q: %w", b, err)
	}
	return onCPU, runq, nil
}

// ReadThreads reads every thread of pid, with its schedstat when schedstat
// is true. Threads that exit while listing are skipped; a vanished process
// is ErrPIDNotFound.
func (h *Host) ReadThreads(pid int, schedstat bool) ([]ThreadTimes, error) {
	dir := h.procPath(strconv.Itoa(pid), "task")
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("pid %d: %w", pid, ErrPIDNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("listing threads of pid %d: %w", pid, err)
	}
	var out []ThreadTimes
	for _, e := range entries {
		b, err := os.ReadFile(dir + "/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		st, err := procs.ParseStat(b)
		if err != nil {
			return nil, err
		}
		t := ThreadTimes{TID: st.PID, Comm: st.Comm, State: st.State, UTime: st.UTime, STime: st.STime, Processor: st.Processor}
		if schedstat {
			if b, err := os.ReadFile(dir + "/" + e.Name() + "/schedstat"); err == nil {
				if t.OnCPUNS, t.RunqNS, err = parseSchedstat(b); err != nil {
					return nil, err
				}
				t.Schedstat = true
			}
		}
		out = append(out, t)
	}
	return out, nil
}
