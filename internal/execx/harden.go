package execx

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/kernelpath"
)

// Harden protects the server from the programs it starts. hostmcp calls it
// once at start-up (internal/app), before any child exists: interactive
// sessions run code of the agent's choosing as the server's user, and perf
// or bpftrace run as it too, so:
//
//   - the process is made non-dumpable: without it a session could ptrace
//     the server or read /proc/<server>/mem, environ and fd (its memory,
//     its token, its open database); with it the kernel allows that only to
//     holders of CAP_SYS_PTRACE, which sessions do not get (the repl
//     toolset's spawner drops it). Core dumps are disabled as a
//     consequence, which keeps secrets out of core files too;
//   - every descriptor is marked close-on-exec. Go opens its own that way,
//     but descriptors inherited from whoever started the server (a
//     supervisor's pipe, a shell's redirection) are not, and every child
//     would inherit them in turn.
func Harden() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("making the server non-dumpable: %w", err)
	}
	if err := unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err == nil {
		return nil
	} else if !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("marking descriptors close-on-exec: %w", err)
	}
	// Kernels before 5.11: one descriptor at a time.
	ents, err := os.ReadDir(kernelpath.SelfFDDir)
	if err != nil {
		return fmt.Errorf("listing descriptors: %w", err)
	}
	for _, e := range ents {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETFD, unix.FD_CLOEXEC) // the listing's own fd is gone by now
		}
	}
	return nil
}

// Hardened says why the server is not protected from its children, or nil
// when it is: the repl toolset asks before it starts any session, rather
// than hardening the process itself as a side effect of being built.
func Hardened() error {
	d, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
	if err != nil {
		return fmt.Errorf("asking whether the server is dumpable: %w", err)
	}
	if d != 0 {
		return errors.New("the server was not hardened at start-up (it is dumpable), so a session could read its memory")
	}
	return nil
}
