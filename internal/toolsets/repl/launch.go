package repl

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/creack/pty"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/kernelpath"
	"github.com/hostmcp/hostmcp/internal/toolsets/repl/sessinit"
)

// termSize is the terminal a PTY session sees: wide, so that long lines
// are not wrapped by programs that format for the terminal's width.
var termSize = pty.Winsize{Rows: 50, Cols: 200}

// launchSpec is a validated request: an allowlisted absolute path, argv,
// a directory inside the roots and the complete environment.
type launchSpec struct {
	path  string
	argv  []string
	dir   string
	env   []string
	pty   bool
	setup sessinit.Setup
	// ruleset builds the session's Landlock ruleset once its terminal
	// exists (nil without one); nil when the session runs unconfined.
	ruleset func(tty *os.File) (*os.File, error)
}

// launch starts the program and the goroutines that collect its output and
// its exit. The program runs under a session init (package sessinit, this
// binary re-executed) in new PID and mount namespaces, so it cannot see the
// server or any other process of the host. The init is the leader of a new
// session and process group (Setsid) that the program shares, so proc_stop
// and ctrl-c reach all of it; with a PTY that terminal is its controlling
// terminal. When the server dies the init gets SIGKILL through Pdeathsig,
// and with it the kernel kills everything in its namespace.
func launch(sp *execx.Spawner, spec launchSpec, bufBytes int) (*session, error) {
	s := &session{
		argv:     spec.argv,
		cwd:      spec.dir,
		pty:      spec.pty,
		buf:      newRing(bufBytes),
		changed:  make(chan struct{}),
		exitedCh: make(chan struct{}),
		done:     make(chan struct{}),
	}
	attr, userns := namespaced()
	spec.setup.AwaitIDMaps = userns
	s.cmd = &exec.Cmd{
		Path:        kernelpath.SelfExe, // this very binary, even if its file was replaced since
		Args:        sessinit.Args(spec.path, spec.argv),
		Env:         append(spec.env[:len(spec.env):len(spec.env)], spec.setup.EnvEntry()),
		Dir:         spec.dir,
		SysProcAttr: attr,
	}
	var childEnds []*os.File // the child's copies, closed in the parent once it started
	var mapped *os.File      // with userns: where the server tells init its namespace is mapped
	var tty *os.File
	if spec.pty {
		master, t, err := pty.Open()
		if err != nil {
			return nil, fmt.Errorf("opening a pseudo-terminal: %w", err)
		}
		tty = t
		if err := ownTerminal(master, tty, spec.setup.User); err != nil {
			master.Close()
			tty.Close()
			return nil, err
		}
		s.cmd.Stdin, s.cmd.Stdout, s.cmd.Stderr = tty, tty, tty
		s.cmd.SysProcAttr.Setctty = true // Ctty 0: the child's stdin
		s.in, s.out = master, master
		childEnds = append(childEnds, tty)
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
		childEnds = append(childEnds, inR, outW)
	}
	statusR, statusW, err := os.Pipe()
	if err == nil {
		s.status = statusR
		s.cmd.ExtraFiles = []*os.File{statusW, nil} // sessinit.StatusFD, RulesetFD
		childEnds = append(childEnds, statusW)
		if spec.ruleset != nil {
			var rs *os.File
			if rs, err = spec.ruleset(tty); err == nil {
				s.cmd.ExtraFiles[1] = rs
				childEnds = append(childEnds, rs)
			} else {
				err = fmt.Errorf("building the session's Landlock ruleset: %w", err)
			}
		}
	}
	if err == nil && userns {
		var r *os.File
		if r, mapped, err = os.Pipe(); err == nil {
			s.cmd.ExtraFiles = append(s.cmd.ExtraFiles, r) // sessinit.IDMapFD
			childEnds = append(childEnds, r)
		}
	}
	if err == nil {
		err = sp.Start(s.cmd)
		if err != nil && userns {
			err = startRefused(err, kernelpath.Proc)
		}
		if err == nil && mapped != nil {
			if err = mapIDs(s.cmd.Process.Pid, mapped); err != nil {
				_ = s.cmd.Process.Kill() // our child, not yet reaped: its pid is still its own
				_ = s.cmd.Wait()
			}
		}
	}
	for _, f := range childEnds {
		f.Close()
	}
	if err != nil {
		if mapped != nil {
			mapped.Close()
		}
		if s.status != nil {
			s.status.Close()
		}
		s.in.Close()
		if s.out != s.in {
			s.out.Close()
		}
		return nil, err
	}
	s.pid = s.cmd.Process.Pid
	s.programPID = programPID(s.pid)
	s.started = time.Now()
	s.lastActivity = s.started
	pumped := make(chan struct{})
	go s.pump(pumped)
	go s.reap(pumped)
	return s, nil
}

// ownTerminal sizes the terminal and gives it to the user the program
// runs as, as login does, so the program can open it again by name.
func ownTerminal(master, tty *os.File, u *sessinit.User) error {
	if err := pty.Setsize(master, &termSize); err != nil {
		return fmt.Errorf("sizing the pseudo-terminal: %w", err)
	}
	if u != nil {
		if err := tty.Chown(int(u.UID), int(u.GID)); err != nil {
			return fmt.Errorf("giving the pseudo-terminal to uid %d: %w", u.UID, err)
		}
	}
	return nil
}

// programPID finds the host PID of the program: the child of the session
// init at pid that runs another executable than init, waiting a little for
// init to fork it and for the fork to exec. Init has other, short-lived
// children: Go's os.StartProcess first forks a copy of init to probe for
// pidfd support, and the program's own fork runs init's executable until
// it execs. That is the PID an agent wants to see (to profile or trace the
// program); the init's stays the one the session is signalled and waited
// through. When the program never started the init's PID stands in. The
// wait is long because it ends as soon as the program runs: on a loaded
// host (CI compiling beside it) fork and exec have taken over 2 s.
func programPID(pid int) int {
	initExe, err := os.Readlink(kernelpath.Child(pid, "exe"))
	if err != nil {
		return pid // init has already ended
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		children, ok := childrenOf(pid)
		if !ok {
			break // init has already ended
		}
		for _, f := range children {
			child, aerr := strconv.Atoi(f)
			if aerr != nil {
				continue
			}
			if exe, err := os.Readlink(kernelpath.Child(child, "exe")); err == nil && exe != initExe {
				return child
			}
		}
	}
	return pid
}

// childrenOf lists the children of every thread of process pid: a child
// belongs to the thread that forked it, and Go forks from whichever thread
// the goroutine runs on, not only the main one.
func childrenOf(pid int) ([]string, bool) {
	tasks, err := os.ReadDir(kernelpath.Child(pid, "task"))
	if err != nil {
		return nil, false
	}
	var children []string
	for _, t := range tasks {
		b, err := os.ReadFile(kernelpath.Child(pid, "task", t.Name(), "children"))
		if err == nil {
			children = append(children, strings.Fields(string(b))...)
		}
	}
	return children, true
}
