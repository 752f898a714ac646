package execx

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/admit"
)

// drainDelay bounds how long Wait keeps reading output after the child's
// group is gone. Only a process that left the group (setsid) can still hold
// the pipes then, and it must not keep Wait from returning.
const drainDelay = time.Second

// Process is a started command. Its process group is stopped (stop signal,
// then SIGKILL after the grace) when Cmd.Timeout or ctx ends it or on Stop;
// whatever is left of the group is SIGKILLed as soon as the leader exits, so
// a command never leaves daemons or stdout-holding grandchildren behind.
type Process struct {
	cmd            *exec.Cmd
	name           string
	started        time.Time
	stdout, stderr *capture
	stdoutPipe     *stdoutPipe
	stopSig        syscall.Signal
	grace          time.Duration
	release        func() // gives back the program slot the child took itself, if any

	mu       sync.Mutex
	exited   bool // the leader is a zombie or gone: its pgid may be reused once reaped
	timedOut bool
	ctxErr   error

	exitedCh chan struct{} // closed once the leader has exited
	done     chan struct{} // closed once res and err are final
	res      Result
	err      error
}

// Start starts cmd and returns at once. ctx bounds the child's whole life,
// not just the start: a background job must pass a context that outlives
// the tool call that started it (context.WithoutCancel, or the server's).
func (r *Runner) Start(ctx context.Context, c Cmd) (*Process, error) {
	path, err := r.lookup(c.Name)
	if err != nil {
		return nil, err
	}
	env, err := childEnv(r.env, c.Env)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	release, err := r.takeSlot(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	p := &Process{
		release:  release,
		name:     c.Name,
		stdout:   newCapture(c.MaxOutput, c.OnStdoutLine, lineEnd(c.StdoutNUL)),
		stderr:   newCapture(c.MaxOutput, nil, '\n'),
		stopSig:  c.StopSignal,
		grace:    r.grace,
		exitedCh: make(chan struct{}),
		done:     make(chan struct{}),
	}
	if p.stopSig == 0 {
		p.stopSig = syscall.SIGTERM
	}
	if p.stdoutPipe, err = newStdoutPipe(c.OnStdoutLine != nil); err != nil {
		release()
		return nil, fmt.Errorf("starting %s: %w", c.Name, err)
	}
	dir := c.Dir
	if dir == "" {
		dir = "/"
	}
	p.cmd = &exec.Cmd{
		Path:   path,
		Args:   append([]string{c.Name}, c.Args...),
		Env:    env,
		Dir:    dir,
		Stdin:  c.Stdin,
		Stdout: p.stdoutPipe.w,
		Stderr: p.stderr,
		SysProcAttr: &syscall.SysProcAttr{
			Setpgid:   true,            // one group to signal, grandchildren included
			Pdeathsig: syscall.SIGKILL, // dies with the server; see Spawner
		},
		WaitDelay: drainDelay,
	}
	p.started = time.Now()
	start := r.spawn.Start
	if c.Confine != nil {
		pol := *c.Confine
		pol.Program = path
		start = func(cmd *exec.Cmd) error { return startConfined(cmd, pol, p.exitedCh) }
	}
	err = start(p.cmd)
	p.stdoutPipe.started(err == nil, p.stdout)
	if err != nil {
		release()
		return nil, fmt.Errorf("starting %s: %w", c.Name, err)
	}
	go p.reap()
	go p.watch(ctx, c.Timeout)
	return p, nil
}

// takeSlot takes a program slot for a child started outside a call that
// holds one (see Options.Programs); the release is a no-op otherwise.
func (r *Runner) takeSlot(ctx context.Context) (func(), error) {
	if r.programs == nil || admit.Holds(ctx, r.programs) {
		return func() {}, nil
	}
	return r.programs.Enter(ctx)
}

// Pid is the leader's process ID, which is also the group ID.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Done is closed when Wait would return without blocking.
func (p *Process) Done() <-chan struct{} { return p.done }

// Wait blocks until the command has ended and its output is drained. It
// may be called any number of times. The error is non-nil only when ctx cut
// the command short or its I/O failed; see Result for the exit status.
func (p *Process) Wait() (Result, error) {
	<-p.done
	return p.res, p.err
}

// Signal sends sig to the whole group, as a terminal's Ctrl-C would. After
// the leader has exited it does nothing, because the group ID could then
// belong to someone else.
func (p *Process) Signal(sig syscall.Signal) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.exited {
		return nil
	}
	if err := syscall.Kill(-p.cmd.Process.Pid, sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("signalling %s: %w", p.name, err)
	}
	return nil
}

// Stop sends the stop signal to the group, SIGKILL after grace if the
// leader is still running, and returns once the command has ended.
func (p *Process) Stop(grace time.Duration) {
	p.stop(grace)
	<-p.done
}

func (p *Process) stop(grace time.Duration) {
	_ = p.Signal(p.stopSig)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.exitedCh:
	case <-t.C:
		_ = p.Signal(syscall.SIGKILL)
	}
}

// watch stops the group when the timeout fires or ctx ends first.
func (p *Process) watch(ctx context.Context, timeout time.Duration) {
	var fired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout - time.Since(p.started))
		defer t.Stop()
		fired = t.C
	}
	select {
	case <-p.exitedCh:
		return
	case <-ctx.Done():
		p.mu.Lock()
		if !p.exited {
			p.ctxErr = ctx.Err()
		}
		p.mu.Unlock()
	case <-fired:
		p.mu.Lock()
		p.timedOut = !p.exited
		p.mu.Unlock()
	}
	p.stop(p.grace)
}

// reap waits for the leader, kills what is left of its group while the
// zombie leader still pins the group ID, then collects status and output.
// Killing the leftovers is what lets Wait return when a grandchild would
// otherwise hold stdout open forever.
func (p *Process) reap() {
	pid := p.cmd.Process.Pid
	exited := waitExited(pid)
	p.mu.Lock()
	if exited {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
	p.exited = true
	p.mu.Unlock()
	close(p.exitedCh)
	p.stdoutPipe.cutAfter(drainDelay) // as WaitDelay does for stderr

	err := p.cmd.Wait()
	if drainErr := p.stdoutPipe.wait(); err == nil {
		err = drainErr
	}
	p.release() // reaped, the rest of its group killed: nothing of it is left
	p.stdout.finish()
	p.stderr.finish()
	p.res, p.err = p.result(err)
	close(p.done)
}

// waitExited blocks until pid has exited without reaping it (WNOWAIT), so
// its process group ID cannot be reused until exec.Cmd.Wait reaps it. It
// reports false if the leader could not be waited for (someone else reaped
// it), when signalling its group ID would no longer be safe.
func waitExited(pid int) bool {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			return err == nil // on any other error, Cmd.Wait reports it
		}
	}
}

// result turns exec's view of the end into a Result and an error.
func (p *Process) result(waitErr error) (Result, error) {
	res := Result{PID: p.Pid(), Duration: time.Since(p.started), ExitCode: -1}
	res.Stdout, res.StdoutTruncated, res.StdoutBytes = p.stdout.result()
	res.Stderr, res.StderrTruncated, res.StderrBytes = p.stderr.result()
	if ps := p.cmd.ProcessState; ps != nil {
		res.ExitCode = ps.ExitCode()
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.Signaled, res.Signal = true, ws.Signal()
		}
	}
	p.mu.Lock()
	res.TimedOut = p.timedOut
	ctxErr := p.ctxErr
	p.mu.Unlock()

	var exitErr *exec.ExitError
	switch {
	case ctxErr != nil:
		return res, fmt.Errorf("%s: %w", p.name, ctxErr)
	case waitErr == nil, errors.As(waitErr, &exitErr), errors.Is(waitErr, exec.ErrWaitDelay):
		return res, nil
	default:
		return res, fmt.Errorf("waiting for %s: %w", p.name, waitErr)
	}
}
