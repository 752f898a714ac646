package repl

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/creack/pty"
)

// termSize is the terminal a PTY session sees: wide, so that long lines
// are not wrapped by programs that format for the terminal's width.
var termSize = pty.Winsize{Rows: 50, Cols: 200}

// launchSpec is a validated request: an allowlisted absolute path, argv,
// a directory inside the roots and the complete environment.
type launchSpec struct {
	path string
	argv []string
	dir  string
	env  []string
	pty  bool
	home string
}

// launch starts the program and the goroutines that collect its output and
// its exit. The child is the leader of a new session and process group
// (Setsid), so proc_stop and ctrl-c reach all of it; with a PTY that
// terminal is its controlling terminal, so when the server dies the kernel
// hangs it up and signals the whole foreground job, and the leader itself
// gets SIGKILL through Pdeathsig.
func launch(sp *spawner, spec launchSpec, bufBytes int) (*session, error) {
	s := &session{
		argv:     spec.argv,
		cwd:      spec.dir,
		pty:      spec.pty,
		home:     spec.home,
		buf:      newRing(bufBytes),
		changed:  make(chan struct{}),
		exitedCh: make(chan struct{}),
		done:     make(chan struct{}),
	}
	s.cmd = &exec.Cmd{
		Path: spec.path,
		Args: spec.argv,
		Env:  spec.env,
		Dir:  spec.dir,
		SysProcAttr: &syscall.SysProcAttr{
			Setsid:    true,
			Pdeathsig: syscall.SIGKILL,
		},
	}
	var childEnds []*os.File // the child's copies, closed in the parent once it started
	if spec.pty {
		master, tty, err := pty.Open()
		if err != nil {
			return nil, fmt.Errorf("opening a pseudo-terminal: %w", err)
		}
		if err := pty.Setsize(master, &termSize); err != nil {
			master.Close()
			tty.Close()
			return nil, fmt.Errorf("sizing the pseudo-terminal: %w", err)
		}
		s.cmd.Stdin, s.cmd.Stdout, s.cmd.Stderr = tty, tty, tty
		s.cmd.SysProcAttr.Setctty = true // Ctty 0: the child's stdin
		s.in, s.out = master, master
		childEnds = []*os.File{tty}
	} else {
		inR, inW, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		outR, outW, err := os.Pipe()
		if err != nil {
			inR.Close()
			inW.Close()
			return nil, err
		}
		s.cmd.Stdin, s.cmd.Stdout, s.cmd.Stderr = inR, outW, outW
		s.in, s.out = inW, outR
		childEnds = []*os.File{inR, outW}
	}
	err := sp.start(s.cmd)
	for _, f := range childEnds {
		f.Close()
	}
	if err != nil {
		s.in.Close()
		if s.out != s.in {
			s.out.Close()
		}
		return nil, err
	}
	s.pid = s.cmd.Process.Pid
	s.started = time.Now()
	s.lastActivity = s.started
	pumped := make(chan struct{})
	go s.pump(pumped)
	go s.reap(pumped)
	return s, nil
}
