// Package execx runs the few external programs hostmcp may use (perf,
// bpftrace, rg, journalctl...): only allowlisted names, resolved to absolute
// paths at start-up, argv only and never a shell, with a scrubbed
// environment, each child in its own process group that dies with the
// server, timeouts that kill the whole group, and output capped while it
// streams (DESIGN.md section 4).
//
// Callers still own their argv: user input must never land where a program
// parses options (put it after "--", or in a value of a known flag).
package execx

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/hostmcp/hostmcp/internal/admit"
	"github.com/hostmcp/hostmcp/internal/landlock"
)

// DefaultKillGrace is how long a group has between the stop signal and
// SIGKILL when Options.KillGrace is not set.
const DefaultKillGrace = 500 * time.Millisecond

// ErrNotInstalled means an allowlisted program was not found on this host.
// It is "not available here", not a bug: callers fall back or report that
// the tool needs the program installed.
var ErrNotInstalled = errors.New("program not installed")

// NotAllowedError is returned for a program outside the allowlist. It
// always means a bug in the calling toolset, never a host condition.
type NotAllowedError struct {
	Name string
}

func (e *NotAllowedError) Error() string {
	return fmt.Sprintf("program %q is not in the exec allowlist", e.Name)
}

// Options configure a Runner. A nil *Options allows nothing.
type Options struct {
	// Allowed are bare program names ("perf", "rg"); nothing else can run.
	Allowed []string
	// ExtraPath are absolute directories searched after the fixed safe ones.
	ExtraPath []string
	// KillGrace is the time between the stop signal and SIGKILL on a timeout
	// or a cancelled context; DefaultKillGrace when zero.
	KillGrace time.Duration
	// Home is every child's HOME: an absolute, private directory of the
	// caller's (the server's is in its state directory), so that what a
	// program keeps in its home (perf's build-id cache, a history file, a
	// cache) lands there and not in "/" or the server user's home. Empty
	// leaves HOME out of the environment.
	Home string
	// TempDir is every child's TMPDIR, and where toolsets put their work
	// files (see Runner.TempDir); absolute. Empty leaves TMPDIR out, and
	// work files go to os.TempDir().
	TempDir string
	// Programs, when set, bounds the children running at once: a child
	// started from a call that holds a slot of it runs under that slot
	// (admit.Holds), any other takes a slot of its own until it exits, or
	// Start answers the gate's refusal. So no child is started uncounted,
	// whether or not its tool declared tool.Spec.Programs. A child a
	// call leaves running in the background (bpftrace_exec_program's) is
	// counted only while that call runs; its toolset bounds it after that.
	Programs *admit.Gate
}

// Cmd is one invocation. Name is looked up in the allowlist; Args follow
// argv[0] and reach the program as they are, never through a shell.
type Cmd struct {
	Name string
	Args []string
	// Dir is the working directory; empty means "/", so a child never
	// depends on where the server happened to be started.
	Dir string
	// Env are extra KEY=VALUE entries on top of the scrubbed base; PATH and
	// LD_* are refused.
	Env []string
	// Stdin is the child's standard input; none when nil. A reader other
	// than an *os.File is copied by a goroutine that Wait waits for, so it
	// must reach EOF: a reader that blocks forever keeps Wait from returning.
	Stdin io.Reader
	// Timeout bounds the run from start; zero means only ctx bounds it.
	Timeout time.Duration
	// MaxOutput is the bytes kept per stream; DefaultMaxOutput when zero.
	MaxOutput int
	// OnStdoutLine, when set, receives every stdout line (without its
	// newline), including those past MaxOutput, from the goroutine draining
	// the pipe. The slice is only valid during the call, and a slow callback
	// stalls the child once the pipe fills (1 MiB for such a child, where
	// the kernel allows: stdoutPipeSize).
	OnStdoutLine func(line []byte)
	// StdoutNUL makes OnStdoutLine's lines end at a NUL byte rather than a
	// newline, for output made to be split so (rg --null --files, find
	// -print0): a file name may hold a newline, never a NUL. The bounds are
	// the same: MaxLine per line, MaxOutput kept.
	StdoutNUL bool
	// StopSignal is sent to the group first on timeout, cancellation or
	// Stop; SIGTERM when zero. perf and bpftrace print their results on
	// SIGINT.
	StopSignal syscall.Signal
	// Confine, when set, runs the program under Landlock with this policy
	// (its Program is filled in): Start fails if the kernel cannot.
	Confine *landlock.Policy
}

// Result is how a command ended. A non-zero exit is reported here, not as a
// Go error: for grep-like programs it is an answer, not a failure.
type Result struct {
	PID             int            // the program's process ID, to recognise it in what it recorded
	ExitCode        int            // -1 when Signaled
	Signaled        bool           // killed by a signal (ours on timeout, or any other)
	Signal          syscall.Signal // which, when Signaled
	Stdout, Stderr  []byte
	StdoutTruncated bool
	StderrTruncated bool
	StdoutBytes     int64 // total written, kept or not
	StderrBytes     int64
	Duration        time.Duration
	TimedOut        bool // Cmd.Timeout fired and the group was stopped
}

// Runner starts allowlisted programs. It is safe for concurrent use.
type Runner struct {
	allowed  map[string]bool
	paths    map[string]string // allowed and found
	path     string            // the search path, for messages
	env      []string
	tempDir  string
	grace    time.Duration
	programs *admit.Gate
	spawn    Spawner
}

// New resolves every allowed name once, so a later change to the
// filesystem or to $PATH cannot redirect a toolset to another binary. A
// program that is missing is simply unavailable; only a malformed name or
// directory is an error.
func New(opts *Options) (*Runner, error) {
	if opts == nil {
		opts = &Options{}
	}
	dirs, err := searchDirs(opts.ExtraPath)
	if err != nil {
		return nil, err
	}
	for _, d := range []string{opts.Home, opts.TempDir} {
		if d != "" && !filepath.IsAbs(d) {
			return nil, fmt.Errorf("child directory %q: not absolute", d)
		}
	}
	r := &Runner{
		allowed:  make(map[string]bool, len(opts.Allowed)),
		paths:    make(map[string]string, len(opts.Allowed)),
		path:     strings.Join(dirs, ":"),
		env:      baseEnv(dirs, opts.Home, opts.TempDir),
		tempDir:  opts.TempDir,
		grace:    opts.KillGrace,
		programs: opts.Programs,
	}
	if r.grace <= 0 {
		r.grace = DefaultKillGrace
	}
	for _, name := range opts.Allowed {
		if !validName(name) {
			return nil, fmt.Errorf("allowed program %q: want a bare name", name)
		}
		r.allowed[name] = true
		if p, ok := resolve(dirs, name); ok {
			r.paths[name] = p
		}
	}
	return r, nil
}

// Path returns the absolute path name was resolved to at start-up.
func (r *Runner) Path(name string) (string, bool) {
	p, ok := r.paths[name]
	return p, ok
}

// TempDir is where a toolset puts the files its children work on (perf's
// data): the runner's TempDir, inside the state directory in a server, or
// os.TempDir() when it has none.
func (r *Runner) TempDir() string {
	if r.tempDir != "" {
		return r.tempDir
	}
	return os.TempDir()
}

// Available reports whether name is allowlisted and installed, so a toolset
// can leave out tools that could only fail.
func (r *Runner) Available(name string) bool {
	_, ok := r.paths[name]
	return ok
}

// lookup returns the path to run, or the error saying why there is none.
func (r *Runner) lookup(name string) (string, error) {
	if !r.allowed[name] {
		return "", &NotAllowedError{Name: name}
	}
	p, ok := r.paths[name]
	if !ok {
		return "", fmt.Errorf("%s: %w (looked in %s)", name, ErrNotInstalled, r.path)
	}
	return p, nil
}

// Run runs cmd to completion. The error is only for a command that could
// not start or was cut short by ctx; the Result is filled in either way once
// the command started.
func (r *Runner) Run(ctx context.Context, cmd Cmd) (Result, error) {
	p, err := r.Start(ctx, cmd)
	if err != nil {
		return Result{}, err
	}
	return p.Wait()
}
