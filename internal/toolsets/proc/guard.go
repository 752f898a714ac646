package proc

import (
	"errors"
	"slices"

	"github.com/hostmcp/hostmcp/internal/procs"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// pidLimit is PID_MAX_LIMIT on 64-bit kernels (include/linux/threads.h):
// no pid can be at or above it whatever pid_max says. Checked before any
// system call, so a wild value never reaches the kernel.
const pidLimit = 4 << 20

// checkPIDRange refuses what kill(2) would read as something other than
// one process: 0 is the caller's process group, -1 every process it may
// signal, other negatives a process group. It makes no system call.
func checkPIDRange(pid int) error {
	switch {
	case pid == 0:
		return tool.Errorf(tool.InvalidPID, "pid 0 means the server's own process group to the kernel; pass the pid of one process")
	case pid == -1:
		return tool.Errorf(tool.InvalidPID, "pid -1 means every process the server may signal; pass the pid of one process")
	case pid < 0:
		return tool.Errorf(tool.InvalidPID, "pid %d means process group %d to the kernel; only single processes can be signalled here", pid, -pid)
	case pid >= pidLimit:
		return tool.Errorf(tool.InvalidPID, "pid %d is above the largest pid Linux can assign (%d)", pid, pidLimit-1)
	}
	return nil
}

// target is a process proc_kill has validated: the start time makes it
// this process and not a later one with the same pid.
type target struct {
	procs.Process
	user string
}

// validate applies every guardrail of DESIGN.md section 4 to pid, in the
// order that answers with the most useful code, and returns the process
// to signal. Nothing here signals anything.
func (s *Set) validate(pid int) (target, error) {
	if err := checkPIDRange(pid); err != nil {
		return target{}, err
	}
	if pidMax, err := s.reader.PIDMax(); err == nil && pid >= pidMax {
		return target{}, tool.Errorf(tool.InvalidPID, "pid %d is not below this host's pid_max (%d), so no process can have it", pid, pidMax)
	}
	if pid == 1 {
		return target{}, tool.Errorf(tool.KillForbidden, "pid 1 is the init process; signalling it can bring the host down")
	}
	if pid == s.deps.Self {
		return target{}, tool.Errorf(tool.KillForbidden, "pid %d is this MCP server", pid)
	}
	p, err := s.reader.Read(pid, true)
	if errors.Is(err, procs.ErrNotFound) {
		return target{}, tool.Wrap(tool.ProcessNotFound, err, "no process %d", pid)
	}
	if err != nil {
		return target{}, tool.Wrap(tool.ExecutionFailed, err, "reading process %d: %v", pid, err)
	}
	if p.TGID != p.PID {
		if p.TGID == s.deps.Self {
			return target{}, tool.Errorf(tool.KillForbidden, "pid %d is a thread of this MCP server", pid)
		}
		return target{}, tool.Errorf(tool.InvalidPID, "pid %d is a thread of process %d, not a process", pid, p.TGID).
			WithSuggestion("Signal the process itself (pid %d) if that is what you mean; threads cannot be signalled alone here.", p.TGID)
	}
	if p.KernelThread() {
		return target{}, tool.Errorf(tool.KillForbidden, "pid %d (%s) is a kernel thread", pid, p.Comm)
	}
	anc, err := s.reader.Ancestors(s.deps.Self)
	if err != nil && len(anc) == 0 {
		return target{}, tool.Wrap(tool.ExecutionFailed, err, "reading this server's ancestors: %v", err)
	}
	if slices.Contains(anc, pid) {
		return target{}, tool.Errorf(tool.KillForbidden, "pid %d (%s) is an ancestor of this MCP server; signalling it would take the server down", pid, p.Comm)
	}
	if !s.deps.Config.AllowKillOtherUsers && (p.RUID != s.uid || p.EUID != s.uid) {
		return target{}, tool.Errorf(tool.PermissionDenied, "pid %d (%s) belongs to user %s, not to this server's user %s",
			pid, p.Comm, s.users.Name(p.EUID), s.users.Name(s.uid)).
			WithSuggestion("Pick a process of user %s; the operator can set allow_kill_other_users = true in [process].", s.users.Name(s.uid))
	}
	return target{Process: p, user: s.users.Name(p.EUID)}, nil
}
