package proc

import (
	"context"
	"errors"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/procs"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// signal sends sig to the validated process t through a pidfd. The pidfd
// pins one process: once it is open, the start time is read again, and if
// it still matches what was validated the signal can reach no other
// process, even if t exits and its pid is reused meanwhile. pidfd_open also
// refuses 0 and negative values, so a bug upstream can never turn into a
// signal to a process group or to every process.
//
// With wait > 0 it then waits that long for t to exit (the pidfd becomes
// readable) and reports whether it did.
func (s *Set) signal(ctx context.Context, t *target, sig unix.Signal, wait time.Duration) (exited bool, err error) {
	if t.PID <= 1 || t.PID == s.deps.Self {
		return false, tool.Errorf(tool.Internal, "refusing to signal pid %d: it passed validation, which is a bug", t.PID)
	}
	fd, err := unix.PidfdOpen(t.PID, 0)
	switch {
	case errors.Is(err, unix.ESRCH):
		return false, tool.Errorf(tool.ProcessNotFound, "process %d exited before it could be signalled", t.PID)
	case errors.Is(err, unix.ENOSYS):
		return false, tool.Wrap(tool.CapabilityMissing, err, "this kernel has no pidfd_open (Linux 5.3+), which proc_kill needs to signal safely").
			WithSuggestion("Run on Linux 5.3 or later; signalling by bare pid could hit a reused pid.")
	case err != nil:
		return false, tool.Wrap(tool.ExecutionFailed, err, "opening a pidfd for %d: %v", t.PID, err)
	}
	defer unix.Close(fd)
	start, err := s.reader.StartTicks(t.PID)
	if errors.Is(err, procs.ErrNotFound) || (err == nil && start != t.StartTicks) {
		return false, tool.Errorf(tool.ProcessNotFound, "process %d (%s) exited before it could be signalled; its pid now names another process or none", t.PID, t.Comm)
	}
	if err != nil {
		return false, tool.Wrap(tool.ExecutionFailed, err, "re-reading process %d: %v", t.PID, err)
	}
	switch err := unix.PidfdSendSignal(fd, sig, nil, 0); {
	case errors.Is(err, unix.ESRCH):
		return false, tool.Errorf(tool.ProcessNotFound, "process %d (%s) exited before the signal was delivered", t.PID, t.Comm)
	case errors.Is(err, unix.EPERM):
		return false, tool.Wrap(tool.PermissionDenied, err, "the kernel refused to let this server signal process %d (%s)", t.PID, t.Comm)
	case err != nil:
		return false, tool.Wrap(tool.ExecutionFailed, err, "signalling %d: %v", t.PID, err)
	}
	if wait <= 0 {
		return false, nil
	}
	return waitExit(ctx, fd, wait)
}

// waitExit polls the pidfd, which becomes readable when the process exits,
// in short slices so a cancelled call stops promptly.
func waitExit(ctx context.Context, fd int, wait time.Duration) (bool, error) {
	deadline := time.Now().Add(wait)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return false, nil
		}
		if err := ctx.Err(); err != nil {
			return false, err
		}
		slice := min(left, 100*time.Millisecond)
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(max(slice.Milliseconds(), 1)))
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return false, tool.Wrap(tool.ExecutionFailed, err, "waiting for the process to exit: %v", err)
		}
		if n > 0 {
			return true, nil
		}
	}
}
