package repl

import (
	"errors"
	"os/exec"
	"runtime"
	"sync"

	"golang.org/x/sys/unix"
)

// spawner forks every session from one OS thread that stays locked for the
// life of the server, for two reasons.
//
// Pdeathsig follows the thread that forked the child, not the process
// (prctl(2); golang/go#27505): a child forked from a thread Go later retires
// would be killed at a random moment. internal/execx does the same for its
// children; see its spawner.
//
// The thread also drops CAP_SYS_PTRACE from its capability bounding set,
// which children inherit: a session running as root then gets every
// capability but that one, and the kernel refuses it access to the server
// made non-dumpable by harden (ptrace, /proc/<server>/mem, environ, fd).
// Capabilities are per thread, and Go never clones new threads from a
// locked one (runtime.newm hands that to its template thread), so the rest
// of the server, and the programs execx starts (perf, bpftrace), keep it.
type spawner struct {
	once    sync.Once
	reqs    chan spawnReq
	dropErr error // why CAP_SYS_PTRACE could not be dropped, if it could not
}

type spawnReq struct {
	cmd  *exec.Cmd
	done chan error
}

// start runs cmd.Start on the spawner's thread.
func (s *spawner) start(cmd *exec.Cmd) error {
	s.once.Do(func() {
		s.reqs = make(chan spawnReq)
		ready := make(chan struct{})
		go s.loop(ready)
		<-ready
	})
	done := make(chan error, 1)
	s.reqs <- spawnReq{cmd: cmd, done: done}
	return <-done
}

func (s *spawner) loop(ready chan<- struct{}) {
	// Never unlocked, and the goroutine never returns: see the type comment.
	runtime.LockOSThread()
	s.dropErr = dropPtrace()
	close(ready)
	for req := range s.reqs {
		req.done <- req.cmd.Start()
	}
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
