package hostinfo

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// ProcessCreds are the ids a process runs with, which the kernel's ptrace
// access check compares with the caller's before perf may sample it or its
// /proc/PID/fd may be listed (ptrace(2), "Ptrace access mode checking").
type ProcessCreds struct {
	UIDs [3]int // real, effective and saved user ids
	GIDs [3]int // real, effective and saved group ids
	// Dumpable means the files in the process's /proc/PID belong to its
	// effective user. The kernel makes them root's when it is not dumpable
	// (PR_SET_DUMPABLE 0, a setuid program, hostmcp itself), and then only
	// CAP_SYS_PTRACE reaches it, even for its own user.
	Dumpable bool
}

// ProcessCreds reads the credentials of process pid; a process that does
// not exist is ErrPIDNotFound.
func (h *Host) ProcessCreds(pid int) (ProcessCreds, error) {
	path := h.procPath(strconv.Itoa(pid), "status")
	fi, err := os.Stat(path)
	if err == nil {
		var b []byte
		if b, err = os.ReadFile(path); err == nil {
			var st procStatus
			if st, err = parseStatus(b); err == nil {
				owner := -1
				if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
					owner = int(sys.Uid)
				}
				return ProcessCreds{UIDs: [3]int{st.UID, st.EUID, st.SUID}, GIDs: [3]int{st.GID, st.EGID, st.SGID}, Dumpable: owner == st.EUID}, nil
			}
		}
	}
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ESRCH) {
		return ProcessCreds{}, fmt.Errorf("pid %d: %w", pid, ErrPIDNotFound)
	}
	return ProcessCreds{}, fmt.Errorf("reading the credentials of pid %d: %w", pid, err)
}
