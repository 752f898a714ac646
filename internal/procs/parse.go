package procs

import (
	"bytes"
	"fmt"
	"strconv"
)

// statusIDs are the identity lines of /proc/<pid>/status.
type statusIDs struct {
	TGID, RUID, EUID int
}

// parseStatusIDs reads "Tgid:" and the real and effective ids of "Uid:"
// from /proc/<pid>/status (proc_pid_status(5)). Both lines are required:
// without them proc_kill cannot tell a thread from a process or one user
// from another.
func parseStatusIDs(b []byte) (statusIDs, error) {
	ids := statusIDs{TGID: -1, RUID: -1, EUID: -1}
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		key, val, ok := bytes.Cut(line, []byte{':'})
		if !ok {
			continue
		}
		switch string(key) {
		case "Tgid":
			n, err := strconv.Atoi(string(bytes.TrimSpace(val)))
			if err != nil || n <= 0 {
				return ids, fmt.Errorf("status Tgid %q: not a pid", val)
			}
			ids.TGID = n
		case "Uid":
			f := bytes.Fields(val)
			if len(f) < 2 {
				return ids, fmt.Errorf("status Uid %q: want real and effective ids", val)
			}
			ru, err1 := strconv.ParseUint(string(f[0]), 10, 32)
			eu, err2 := strconv.ParseUint(string(f[1]), 10, 32)
			if err1 != nil || err2 != nil {
				return ids, fmt.Errorf("status Uid %q: not numeric", val)
			}
			ids.RUID, ids.EUID = int(ru), int(eu)
		}
		if ids.TGID > 0 && ids.EUID >= 0 {
			return ids, nil
		}
	}
	return ids, fmt.Errorf("status lacks Tgid or Uid")
}

// parsePIDMax parses /proc/sys/kernel/pid_max.
func parsePIDMax(b []byte) (int, error) {
	n, err := strconv.Atoi(string(bytes.TrimSpace(b)))
	if err != nil || n <= 1 {
		return 0, fmt.Errorf("pid_max %q: not a pid bound", bytes.TrimSpace(b))
	}
	return n, nil
}

// Stat is what hostmcp reads of /proc/<pid>/stat, and of a thread's
// /proc/<pid>/task/<tid>/stat, which has the same layout: the process
// table (proc_list, proc_kill) and the thread readers of hostinfo share
// this one parser, as procfs's Proc and its threads do.
type Stat struct {
	PID, PPID    int
	Comm, State  string
	Flags        uint
	UTime, STime uint64 // in ClockTicks
	Threads      int
	StartTicks   uint64
	RSSPages     int64
	// Processor is the CPU the task last ran on; 0 when the kernel does
	// not print it.
	Processor int
}

// ParseStat parses /proc/<pid>/stat (proc_pid_stat(5)). The command name
// may hold spaces and parentheses, so it runs from the first '(' to the
// last ')'; the numbered fields follow, through rss at least. Written by
// hand rather than with procfs, whose fmt.Fscan parse was a third of a
// listing's time.
func ParseStat(b []byte) (Stat, error) {
	var s Stat
	open := bytes.IndexByte(b, '(')
	closing := bytes.LastIndexByte(b, ')')
	if open < 1 || closing < open {
		return s, fmt.Errorf("stat: no (comm) in %.40q", b)
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
	if err != nil {
		return s, fmt.Errorf("stat: pid: %w", err)
	}
	if pid < 1 {
		return s, fmt.Errorf("stat: pid %d: not a process id", pid)
	}
	s.PID, s.Comm = pid, string(b[open+1:closing])
	f := bytes.Fields(b[closing+1:])
	// Index in f of each field we need: state is field 3 of the man page.
	const (
		iState, iPPID, iFlags, iUTime, iSTime, iThreads, iStart, iRSS, iProcessor = 0, 1, 6, 11, 12, 17, 19, 21, 36
	)
	if len(f) <= iRSS {
		return s, fmt.Errorf("stat: %d fields after comm, want at least %d", len(f), iRSS+1)
	}
	s.State = string(f[iState])
	num := func(i int) uint64 {
		if err != nil {
			return 0
		}
		var v uint64
		v, err = strconv.ParseUint(string(f[i]), 10, 64)
		return v
	}
	s.PPID = int(num(iPPID))
	s.Flags = uint(num(iFlags))
	s.UTime, s.STime = num(iUTime), num(iSTime)
	s.Threads = int(num(iThreads))
	s.StartTicks = num(iStart)
	if err != nil {
		return s, fmt.Errorf("stat: %w", err)
	}
	rss, err := strconv.ParseInt(string(f[iRSS]), 10, 64)
	if err != nil {
		return s, fmt.Errorf("stat: rss: %w", err)
	}
	s.RSSPages = rss
	if len(f) > iProcessor {
		s.Processor, _ = strconv.Atoi(string(f[iProcessor]))
	}
	return s, nil
}
