// Package procs reads the process table from procfs for the proc toolset:
// one Process per thread-group leader, with what proc_list shows and what
// proc_kill needs to recognise a process again (its start time). It never
// runs ps: procfs is cheaper than a fork, and its fields are exact.
//
// The reader takes its procfs root as a parameter, so tests point it at a
// fixture tree; nothing here sends a signal.
package procs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/prometheus/procfs"
)

// ClockTicks is USER_HZ, the unit of the times in /proc/<pid>/stat. It is
// 100 on every Linux architecture userspace sees (procfs assumes the same).
const ClockTicks = 100

// pfKthread is PF_KTHREAD from include/linux/sched.h: the task is a kernel
// thread. It is the reliable test; ppid 2 (kthreadd's children) is a hint.
const pfKthread = 0x00200000

// ErrNotFound means the process does not exist (or exited while it was
// read). Callers report it as PROCESS_NOT_FOUND.
var ErrNotFound = errors.New("no such process")

// Process is one process as procfs shows it at one instant.
type Process struct {
	PID, PPID int
	// TGID is the thread-group id: equal to PID for a process, different
	// when PID names a thread of another process (/proc/<tid> exists but is
	// not listed).
	TGID int
	// RUID and EUID are the real and effective user ids; -1 when the status
	// file could not be read.
	RUID, EUID int
	Comm       string
	State      string // one letter: R, S, D, Z, T, t, X, I
	Flags      uint
	CPUTicks   uint64 // utime + stime, in ClockTicks
	StartTicks uint64 // since boot, in ClockTicks: with PID, the identity
	RSSBytes   uint64
	Threads    int
	// Cmdline is argv joined by spaces, cut to the reader's limit; empty for
	// kernel threads and zombies.
	Cmdline    string
	CmdlineCut bool
}

// KernelThread reports whether p is a kernel thread, which no tool may
// signal.
func (p *Process) KernelThread() bool {
	return p.Flags&pfKthread != 0 || p.PID == 2 || p.PPID == 2
}

// Key identifies a process across samples: a pid alone may be reused.
type Key struct {
	PID        int
	StartTicks uint64
}

// Key returns p's identity.
func (p *Process) Key() Key { return Key{p.PID, p.StartTicks} }

// Reader reads processes under one procfs root.
type Reader struct {
	root       string
	fs         procfs.FS
	maxCmdline int
	pageSize   uint64

	bootOnce sync.Once
	boot     int64
	bootErr  error
}

// DefaultMaxCmdline bounds the command line kept per process: enough to
// recognise a program and its main arguments, small enough that a thousand
// of them stay readable.
const DefaultMaxCmdline = 512

// New returns a Reader of the procfs mounted at root ("/proc" when empty)
// that keeps at most maxCmdline bytes of each command line
// (DefaultMaxCmdline when 0).
func New(root string, maxCmdline int) (*Reader, error) {
	if root == "" {
		root = procfs.DefaultMountPoint
	}
	fsys, err := procfs.NewFS(root)
	if err != nil {
		return nil, fmt.Errorf("opening procfs at %s: %w", root, err)
	}
	if maxCmdline <= 0 {
		maxCmdline = DefaultMaxCmdline
	}
	return &Reader{root: root, fs: fsys, maxCmdline: maxCmdline, pageSize: uint64(os.Getpagesize())}, nil
}

// BootTime is the boot time in seconds since the epoch, read once.
func (r *Reader) BootTime() (int64, error) {
	r.bootOnce.Do(func() {
		st, err := r.fs.Stat()
		if err != nil {
			r.bootErr = fmt.Errorf("reading %s/stat: %w", r.root, err)
			return
		}
		r.boot = int64(st.BootTime)
	})
	return r.boot, r.bootErr
}

// MemTotal is the host's memory in bytes, the base of mem_percent.
func (r *Reader) MemTotal() (uint64, error) {
	mi, err := r.fs.Meminfo()
	if err != nil || mi.MemTotalBytes == nil {
		return 0, fmt.Errorf("reading %s/meminfo: %w", r.root, err)
	}
	return *mi.MemTotalBytes, nil
}

// PIDMax is the largest pid the kernel hands out plus one
// (/proc/sys/kernel/pid_max); pids at or above it cannot exist.
func (r *Reader) PIDMax() (int, error) {
	b, err := os.ReadFile(filepath.Join(r.root, "sys", "kernel", "pid_max"))
	if err != nil {
		return 0, fmt.Errorf("reading pid_max: %w", err)
	}
	return parsePIDMax(b)
}

// PIDs lists the processes (thread-group leaders) that exist now.
func (r *Reader) PIDs() ([]int, error) {
	ents, err := os.ReadDir(r.root)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", r.root, err)
	}
	pids := make([]int, 0, len(ents))
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil && pid > 0 {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}

// notFound maps the errors of a process that vanished to ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errESRCH) {
		return fmt.Errorf("%w: %v", ErrNotFound, err)
	}
	return err
}
