package repl

import (
	"errors"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/execx"
)

// newSpawner returns the spawner sessions are forked from: execx's, whose
// thread stays locked for the life of the server so that Pdeathsig holds
// (see execx.Spawner), and which first drops CAP_SYS_PTRACE from that
// thread's capability bounding set. Children inherit it: a session running
// as root then gets every capability but that one, and the kernel refuses
// it access to the server made non-dumpable at start-up (execx.Harden):
// ptrace, /proc/<server>/mem, environ, fd. Capabilities are per thread, so
// the rest of the server, and the programs execx starts (perf, bpftrace),
// keep it. A drop that fails (a server that is not root, without
// CAP_SETPCAP, whose sessions gain no capability at exec anyway) leaves
// the bounding set as it was.
func newSpawner() *execx.Spawner {
	return &execx.Spawner{Prepare: func() { _ = dropPtrace() }}
}

// dropPtrace removes CAP_SYS_PTRACE from this thread's bounding and
// inheritable sets: a program run as root gets its permitted set from the
// union of the two. Dropping needs CAP_SETPCAP; a server without it (not
// root) has no CAP_SYS_PTRACE to pass on anyway, so EPERM there is fine.
func dropPtrace() error {
	err := unix.Prctl(unix.PR_CAPBSET_DROP, unix.CAP_SYS_PTRACE, 0, 0, 0)
	if errors.Is(err, unix.EPERM) && !hasPtrace() {
		err = nil
	}
	if err != nil {
		return err
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3} // Pid 0: this thread
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return err
	}
	if data[0].Inheritable&(1<<unix.CAP_SYS_PTRACE) == 0 {
		return nil
	}
	data[0].Inheritable &^= 1 << unix.CAP_SYS_PTRACE
	return unix.Capset(&hdr, &data[0])
}

// hasPtrace reports whether this thread's bounding set has CAP_SYS_PTRACE.
func hasPtrace() bool {
	r, err := unix.PrctlRetInt(unix.PR_CAPBSET_READ, unix.CAP_SYS_PTRACE, 0, 0, 0)
	return err == nil && r == 1
}
