package hostinfo

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"
)

// FDCounts are a process's open descriptors by kind.
type FDCounts struct {
	Total  int `json:"total"`
	File   int `json:"file"` // regular files and directories
	Socket int `json:"socket"`
	Pipe   int `json:"pipe"`
	Anon   int `json:"anon"`  // anon_inode: eventfd, epoll, timerfd, signalfd, bpf...
	Other  int `json:"other"` // devices, namespaces and anything else
}

// FD is one open descriptor and what it points to.
type FD struct {
	FD     int    `json:"fd"`
	Type   string `json:"type"`
	Target string `json:"target"`
}

// FDReading is one look at /proc/<pid>/fd.
type FDReading struct {
	Counts FDCounts
	FDs    []FD // sorted by number
}

// classifyFD names the kind of a descriptor from its /proc/<pid>/fd link
// target (proc_pid_fd(5)): "socket:[123]", "pipe:[456]", "anon_inode:[eventfd]",
// a path for files, /dev/... for devices.
func classifyFD(target string) string {
	switch {
	case strings.HasPrefix(target, "socket:"):
		return "socket"
	case strings.HasPrefix(target, "pipe:"):
		return "pipe"
	case strings.HasPrefix(target, "anon_inode:"):
		return "anon"
	case strings.HasPrefix(target, "/dev/") && !strings.HasPrefix(target, "/dev/shm/"):
		return "other"
	case strings.HasPrefix(target, "/"):
		return "file"
	}
	return "other"
}

// ReadFDs lists a process's descriptors. A vanished process is ErrPIDNotFound;
// descriptors closed while listing are skipped.
func (h *Host) ReadFDs(pid int) (FDReading, error) {
	dir := h.procPath(strconv.Itoa(pid), "fd")
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return FDReading{}, fmt.Errorf("pid %d: %w", pid, ErrPIDNotFound)
	}
	if err != nil {
		return FDReading{}, fmt.Errorf("listing descriptors of pid %d: %w", pid, err)
	}
	var r FDReading
	for _, e := range entries {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		target, err := os.Readlink(dir + "/" + e.Name())
		if err != nil {
			continue // closed meanwhile
		}
		fd := FD{FD: n, Type: classifyFD(target), Target: target}
		r.FDs = append(r.FDs, fd)
		r.Counts.Total++
		switch fd.Type {
		case "file":
			r.Counts.File++
		case "socket":
			r.Counts.Socket++
		case "pipe":
			r.Counts.Pipe++
		case "anon":
			r.Counts.Anon++
		default:
			r.Counts.Other++
		}
	}
	sort.Slice(r.FDs, func(i, j int) bool { return r.FDs[i].FD < r.FDs[j].FD })
	return r, nil
}

// FDLimit reads the soft and hard "Max open files" of /proc/<pid>/limits; 0
// means unlimited.
func (h *Host) FDLimit(pid int) (soft, hard uint64, err error) {
	b, err := os.ReadFile(h.procPath(strconv.Itoa(pid), "limits"))
	if errors.Is(err, os.ErrNotExist) {
		return 0, 0, fmt.Errorf("pid %d: %w", pid, ErrPIDNotFound)
	}
	if err != nil {
		return 0, 0, err
	}
	return parseOpenFilesLimit(b)
}

// parseOpenFilesLimit finds the "Max open files" row of /proc/<pid>/limits:
// "Max open files  1024  524288  files".
func parseOpenFilesLimit(b []byte) (soft, hard uint64, err error) {
	for _, line := range strings.Split(string(b), "\n") {
		rest, ok := strings.CutPrefix(line, "Max open files")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) < 2 {
			return 0, 0, fmt.Errorf("limits: %q lacks soft and hard values", line)
		}
		lim := func(s string) (uint64, error) {
			if s == "unlimited" {
				return 0, nil
			}
			return strconv.ParseUint(s, 10, 64)
		}
		if soft, err = lim(f[0]); err != nil {
			return 0, 0, fmt.Errorf("limits: soft open files %q: %w", f[0], err)
		}
		if hard, err = lim(f[1]); err != nil {
			return 0, 0, fmt.Errorf("limits: hard open files %q: %w", f[1], err)
		}
		return soft, hard, nil
	}
	return 0, 0, errors.New("limits: no \"Max open files\" row")
}

// eachFD calls fn with every process's descriptors (the /proc/<pid>/fd/<n>
// link and its target) until fn returns false or budget runs out, and
// reports whether it stopped for time. It serves the host-wide questions
// (which process holds this socket, these deleted files) that lsof answers
// by the same walk.
func (h *Host) eachFD(budget time.Duration, fn func(pid int, link, target string) bool) (timedOut bool) {
	stop := time.Now().Add(budget)
	procs, _ := os.ReadDir(h.procPath())
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		dir := h.procPath(p.Name(), "fd")
		fds, _ := os.ReadDir(dir) // gone, or not ours to read
		for _, fd := range fds {
			if time.Now().After(stop) {
				return true
			}
			link := dir + "/" + fd.Name()
			target, err := os.Readlink(link)
			if err != nil {
				continue
			}
			if !fn(pid, link, target) {
				return false
			}
		}
	}
	return false
}
