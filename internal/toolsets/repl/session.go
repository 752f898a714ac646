package repl

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Session states as proc_read and proc_sessions report them.
const (
	stateRunning = "running"
	stateExited  = "exited"
)

// drainDelay bounds how long a finished session keeps reading output after
// its leader exited. Only a process that left the session's group can
// still hold the terminal then, and it must not keep the session open.
const drainDelay = time.Second

// session is one interactive program. Its output is pumped into a ring as
// it arrives; its leader is reaped by its own goroutine, which also kills
// whatever is left of its process group, so a finished session leaves
// nothing running.
type session struct {
	id      string
	owner   string // the MCP client session that started it
	argv    []string
	cwd     string
	pty     bool
	started time.Time

	cmd        *exec.Cmd
	pid        int      // the session init: leader of the session's process group
	programPID int      // the program, as the host sees it
	in, out    *os.File // the PTY master twice, or the stdin and output pipes
	status     *os.File // where the session init reports the program's wait status

	mu           sync.Mutex
	buf          *ring
	lastOutput   time.Time
	lastActivity time.Time // last start, send or read by the client
	cursor       int64     // where a proc_read without offset starts
	echoWant     string    // the last line of a block sent, until echoed (see awaitEchoLocked)
	echoBreaks   int       // line ends to see from echoWant on
	echoFrom     int64     // where the output after that send starts
	leaderGone   bool      // the leader exited: its group ID may be reused, never signal it
	exited       bool
	exitCode     int
	signal       string // the signal that ended it, if one did
	ended        time.Time
	stopReason   string // why the server stopped it, if it did
	changed      chan struct{}

	exitedCh chan struct{} // closed when the leader has exited
	done     chan struct{} // closed when the exit status is final and output drained
}

// notifyLocked wakes every reader waiting for output or an exit.
func (s *session) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// pump copies output into the ring until the terminal or pipe is closed by
// every writer (EIO on a PTY master, EOF on a pipe) or by reap.
func (s *session) pump(done chan<- struct{}) {
	defer close(done)
	b := make([]byte, 32<<10)
	for {
		n, err := s.out.Read(b)
		if n > 0 {
			s.mu.Lock()
			s.buf.write(b[:n])
			s.lastOutput = time.Now()
			s.notifyLocked()
			s.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// reap waits for the leader without reaping it (WNOWAIT, so its process
// group ID stays pinned), kills what is left of its group, reaps it, drains
// the output, and records how it ended.
func (s *session) reap(pumped <-chan struct{}) {
	exited := waitExited(s.pid)
	s.mu.Lock()
	if exited {
		_ = syscall.Kill(-s.pid, syscall.SIGKILL)
	}
	s.leaderGone = true
	s.mu.Unlock()
	close(s.exitedCh)

	_ = s.cmd.Wait() // the status is read from ProcessState below
	t := time.NewTimer(drainDelay)
	select {
	case <-pumped:
	case <-t.C:
	}
	t.Stop()
	_ = s.out.Close() // ends the pump if an escaped process still holds the terminal
	<-pumped
	if s.in != s.out {
		_ = s.in.Close()
	}

	ws, known := s.programStatus()
	s.mu.Lock()
	s.exited, s.ended, s.exitCode = true, time.Now(), -1
	if known {
		s.exitCode = ws.ExitStatus() // -1 when a signal ended it
		if ws.Signaled() {
			s.signal = unix.SignalName(ws.Signal())
		}
	}
	s.notifyLocked()
	s.mu.Unlock()
	close(s.done)
}

// programStatus is how the program ended: as its init reported it, or, when
// the init itself was killed first (SIGKILL from proc_stop or the limits),
// the init's own status, which the program shared: the kernel killed it too.
func (s *session) programStatus() (syscall.WaitStatus, bool) {
	defer s.status.Close()
	b, _ := io.ReadAll(io.LimitReader(s.status, 32)) // the init is gone: EOF follows its report
	if n, err := strconv.ParseUint(string(b), 10, 32); err == nil {
		return syscall.WaitStatus(n), true
	}
	if ps := s.cmd.ProcessState; ps != nil {
		ws, ok := ps.Sys().(syscall.WaitStatus)
		return ws, ok
	}
	return 0, false
}

// waitExited blocks until pid has exited, leaving it a zombie. It reports
// false if the leader could not be waited for, when signalling its group
// would no longer be safe.
func waitExited(pid int) bool {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			return err == nil
		}
	}
}

// kill sends sig to the session's process group, as a terminal's Ctrl-C
// reaches every process of the foreground job. Once the leader is gone it
// does nothing: the group ID could belong to someone else by then.
func (s *session) kill(sig syscall.Signal) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.leaderGone {
		return nil
	}
	if err := syscall.Kill(-s.pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}

// stop sends sig, then SIGKILL if the leader is still running after grace,
// and waits for the session to finish. It reports whether it had to
// escalate. reason is recorded for the first stop only.
func (s *session) stop(sig syscall.Signal, grace time.Duration, reason string) (escalated bool) {
	s.mu.Lock()
	if s.stopReason == "" && !s.exited {
		s.stopReason = reason
	}
	s.mu.Unlock()
	_ = s.kill(sig)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-s.exitedCh:
	case <-t.C:
		escalated = true
		_ = s.kill(syscall.SIGKILL)
	}
	<-s.done
	return escalated
}

// running reports whether the session still counts against the limits.
func (s *session) running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.exited
}
