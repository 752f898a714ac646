package procs

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"syscall"
)

var errESRCH = syscall.ESRCH

// Read reads one process: stat, status and, when withCmdline, its command
// line. A pid that does not exist, or exits meanwhile, is ErrNotFound.
func (r *Reader) Read(pid int, withCmdline bool) (Process, error) {
	return r.read(pid, withCmdline, r.newScratch())
}

// scratch is one reader's buffer, reused across the processes of a table
// so a listing allocates little more than its result.
type scratch struct{ buf []byte }

// statusBytes covers the Tgid and Uid lines, which come first in status.
const statusBytes = 4096

func (r *Reader) newScratch() *scratch {
	return &scratch{buf: make([]byte, max(statusBytes, r.maxCmdline+1))}
}

func (r *Reader) read(pid int, withCmdline bool, sc *scratch) (Process, error) {
	if pid <= 0 {
		return Process{}, fmt.Errorf("pid %d: %w", pid, ErrNotFound)
	}
	p, err := r.readStat(pid, sc)
	if err != nil {
		return Process{}, err
	}
	st, err := readInto(r.path(pid, "status"), sc.buf[:statusBytes])
	if err != nil {
		return Process{}, notFound(err)
	}
	ids, err := parseStatusIDs(st)
	if err != nil {
		return Process{}, fmt.Errorf("pid %d: %w", pid, err)
	}
	p.TGID, p.RUID, p.EUID = ids.TGID, ids.RUID, ids.EUID
	if withCmdline && !p.KernelThread() {
		p.Cmdline, p.CmdlineCut, err = r.cmdline(pid, sc)
		if err != nil {
			return Process{}, notFound(err)
		}
	}
	return p, nil
}

// readStat reads /proc/<pid>/stat, the one file every caller needs: the
// ppid, flags, times and start time.
func (r *Reader) readStat(pid int, sc *scratch) (Process, error) {
	b, err := readInto(r.path(pid, "stat"), sc.buf[:statusBytes])
	if err != nil {
		return Process{}, notFound(err)
	}
	s, err := ParseStat(b)
	if err != nil {
		return Process{}, fmt.Errorf("pid %d: %w", pid, err)
	}
	return Process{
		PID:        s.PID,
		PPID:       s.PPID,
		TGID:       s.PID,
		RUID:       -1,
		EUID:       -1,
		Comm:       s.Comm,
		State:      s.State,
		Flags:      s.Flags,
		CPUTicks:   s.UTime + s.STime,
		StartTicks: s.StartTicks,
		RSSBytes:   uint64(max(s.RSSPages, 0)) * r.pageSize,
		Threads:    s.Threads,
	}, nil
}

// StartTicks reads only the start time of pid, to check that a pid still
// names the process that was validated.
func (r *Reader) StartTicks(pid int) (uint64, error) {
	p, err := r.readStat(pid, &scratch{buf: make([]byte, statusBytes)})
	if err != nil {
		return 0, err
	}
	return p.StartTicks, nil
}

// PPID reads only the parent of pid; ancestry walks need nothing else.
func (r *Reader) PPID(pid int) (int, error) {
	p, err := r.readStat(pid, &scratch{buf: make([]byte, statusBytes)})
	if err != nil {
		return 0, err
	}
	return p.PPID, nil
}

// Ancestors lists the parents of pid up to PID 1, nearest first. Bounded,
// so a corrupt fixture cannot loop.
func (r *Reader) Ancestors(pid int) ([]int, error) {
	var out []int
	for i := 0; i < 4096 && pid > 1; i++ {
		ppid, err := r.PPID(pid)
		if err != nil {
			return out, err
		}
		if ppid <= 0 {
			break
		}
		out = append(out, ppid)
		pid = ppid
	}
	return out, nil
}

// cmdline reads at most maxCmdline bytes of argv: a process may have
// megabytes of arguments, and reading them all for a listing is waste.
func (r *Reader) cmdline(pid int, sc *scratch) (string, bool, error) {
	b, err := readInto(r.path(pid, "cmdline"), sc.buf[:r.maxCmdline+1])
	if err != nil {
		return "", false, err
	}
	s, cut := joinArgv(b, r.maxCmdline)
	return s, cut, nil
}

// joinArgv turns NUL-separated argv into one line, cut to limit bytes; b
// may hold limit+1 bytes, which says there was more.
func joinArgv(b []byte, limit int) (string, bool) {
	cut := len(b) > limit
	if cut {
		b = b[:limit]
	} else {
		b = bytes.TrimRight(b, "\x00")
	}
	out := bytes.ReplaceAll(b, []byte{0}, []byte{' '})
	return string(bytes.ToValidUTF8(out, []byte("\uFFFD"))), cut
}

func (r *Reader) path(pid int, name string) string {
	return filepath.Join(r.root, strconv.Itoa(pid), name)
}
