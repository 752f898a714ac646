package hostinfo

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ThreadTimes is one thread's cumulative CPU time from /proc/<pid>/task/<tid>/stat.
type ThreadTimes struct {
	TID       int
	Comm      string
	State     string
	UTime     uint64 // clock ticks in user mode
	STime     uint64 // clock ticks in kernel mode
	Processor int    // CPU it last ran on
}

// taskStat is what we need of a /proc/<pid>/stat line (proc_pid_stat(5)).
// The command sits in parentheses and may itself contain spaces and ")", so
// fields are counted from the last ")".
type taskStat struct {
	PID          int
	Comm, State  string
	UTime, STime uint64
	Processor    int
}

func parseTaskStat(b []byte) (taskStat, error) {
	s := strings.TrimSpace(string(b))
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return taskStat{}, fmt.Errorf("stat %q: no (comm)", s)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(s[:open]))
	if err != nil {
		return taskStat{}, fmt.Errorf("stat pid %q: %w", s[:open], err)
	}
	f := strings.Fields(s[end+1:])
	// After comm: state(3) ... utime(14) stime(15) ... processor(39).
	if len(f) < 13 {
		return taskStat{}, fmt.Errorf("stat of %d: %d fields after comm, want at least 13", pid, len(f))
	}
	st := taskStat{PID: pid, Comm: s[open+1 : end], State: f[0]}
	if st.UTime, err = strconv.ParseUint(f[11], 10, 64); err != nil {
		return taskStat{}, fmt.Errorf("stat utime %q: %w", f[11], err)
	}
	if st.STime, err = strconv.ParseUint(f[12], 10, 64); err != nil {
		return taskStat{}, fmt.Errorf("stat stime %q: %w", f[12], err)
	}
	if len(f) > 36 {
		st.Processor, _ = strconv.Atoi(f[36])
	}
	return st, nil
}

// ReadThreads reads every thread of pid. Threads that exit while listing are
// skipped; a vanished process is ErrPIDNotFound.
func (h *Host) ReadThreads(pid int) ([]ThreadTimes, error) {
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
		st, err := parseTaskStat(b)
		if err != nil {
			return nil, err
		}
		out = append(out, ThreadTimes{TID: st.PID, Comm: st.Comm, State: st.State, UTime: st.UTime, STime: st.STime, Processor: st.Processor})
	}
	return out, nil
}
