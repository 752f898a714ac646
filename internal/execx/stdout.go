package execx

import (
	"errors"
	"io"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// stdoutPipeSize is the capacity asked for the stdout pipe of a child whose
// lines a callback takes (Cmd.OnStdoutLine), where the kernel's default is
// 64 KiB. A child writing while the server is busy with what it already
// read (a search checking each name rg listed, on two CPUs that rg's own
// threads keep busy) blocks on a full pipe, and rg blocks all its walking
// threads behind the one that prints: 1.7 to 3.4 ms of a search_files call
// listing 400 KB, up to 30 ms for one write (bench/RESULTS.md, issue 20).
// The pages are the kernel's and are taken only as output waits unread,
// but the capacity counts against the user's fs.pipe-user-pages-soft, past
// which an unprivileged user's new pipes get two pages: so only the
// children whose reader does work per line get it, and where the kernel
// refuses it the pipe keeps its size.
const stdoutPipeSize = 1 << 20

// stdoutReadSize is how much one read takes from that pipe.
const stdoutReadSize = 64 << 10

// stdoutPipe is a child's stdout: a pipe of its own, whose write end the
// child gets as its descriptor 1 (no goroutine of os/exec copies it) and
// whose read end drain copies into the capture.
type stdoutPipe struct {
	r, w    *os.File
	drained chan struct{} // closed once drain has returned
	err     error         // why drain stopped before EOF, if it did
}

// newStdoutPipe makes the pipe, of stdoutPipeSize when wide.
func newStdoutPipe(wide bool) (*stdoutPipe, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	if wide {
		// Best effort: a pipe of the default size is only slower.
		_, _ = unix.FcntlInt(w.Fd(), unix.F_SETPIPE_SZ, stdoutPipeSize)
	}
	return &stdoutPipe{r: r, w: w, drained: make(chan struct{})}, nil
}

// started closes the parent's copy of the write end, so that the read end
// meets EOF once the child and whatever inherited its stdout are gone, and
// starts draining into c. After a failed start it closes both ends.
func (s *stdoutPipe) started(ok bool, c *capture) {
	s.w.Close()
	if !ok {
		s.r.Close()
		close(s.drained)
		return
	}
	go s.drain(c)
}

func (s *stdoutPipe) drain(c *capture) {
	defer close(s.drained)
	defer s.r.Close()
	buf := make([]byte, stdoutReadSize)
	_, err := io.CopyBuffer(c, onlyReader{s.r}, buf)
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		s.err = err
	}
}

// cutAfter stops the drain d from now if the pipe has not reached EOF by
// then: only a process that left the child's group (setsid) can still hold
// the write end once the group is killed, and it must not keep Wait from
// returning. What it wrote until then is kept.
func (s *stdoutPipe) cutAfter(d time.Duration) {
	_ = s.r.SetReadDeadline(time.Now().Add(d))
}

// wait returns once the drain has ended, with its error, if any.
func (s *stdoutPipe) wait() error {
	<-s.drained
	return s.err
}

// onlyReader hides the *os.File's WriteTo, so that io.CopyBuffer reads
// into the buffer given instead of the 32 KiB one os.File would use.
type onlyReader struct{ io.Reader }
