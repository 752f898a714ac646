package repl

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/hostmcp/hostmcp/internal/kernelpath"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/toolsets/repl/sessinit"
)

// startIn is the input of proc_start.
type startIn struct {
	Command []string          `json:"command" jsonschema:"argv (no shell), e.g. [\"python3\"]; proc_sessions lists what is allowed"`
	Cwd     string            `json:"cwd,omitempty" jsonschema:"working directory in the roots"`
	Env     map[string]string `json:"env,omitempty" jsonschema:"extra variables; code loaders (LD_*, PYTHON*...) are refused"`
	PTY     *bool             `json:"pty,omitempty" jsonschema:"false: pipes, stderr merged" default:"true"`
	WaitMs  *int              `json:"wait_ms,omitempty" jsonschema:"wait for first output, ending at a prompt" default:"5000"`
	DryRun  bool              `json:"dry_run,omitempty"`
}

// startOut is the answer of proc_start.
type startOut struct {
	ProcID  string   `json:"proc_id" jsonschema:"the session's id for proc_send, proc_read and proc_stop"`
	PID     int      `json:"pid" jsonschema:"process id of the program (it runs in its own PID namespace under a small init, which leads its process group)"`
	Command []string `json:"command" jsonschema:"the argv that was started"`
	Cwd     string   `json:"cwd" jsonschema:"the directory it runs in"`
	PTY     bool     `json:"pty" jsonschema:"whether it runs under a pseudo-terminal"`
	chunk
	Plan *tool.Plan `json:"plan,omitempty" jsonschema:"dry run: what it would start (proc_id, pid and output are empty)"`
}

const (
	defaultStartWait = 5 * time.Second
	startQuiet       = 300 * time.Millisecond
	firstOutputMax   = 16 << 10
	// homeBytes bounds the private tmpfs a session gets as HOME and
	// TMPDIR: room for history files and scratch work, not for a disk.
	homeBytes = 64 << 20
)

func (s *Set) start() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "proc_start",
		Kind:        tool.Destructive, // runs code of the agent's choosing, which may change or delete anything the session can reach
		Title:       "Start an interactive session",
		Description: "Start an allowlisted interactive program (python3, node...) on a pty; returns proc_id and first output.",
		Timeout:     40 * time.Second,
		Facts:       startFacts,
	}, s.handleStart).WithRange("wait_ms", 0, 30000).WithMaxItems("command", maxArgs, maxArgBytes)
}

func (s *Set) handleStart(ctx context.Context, call *tool.Call, in startIn) (startOut, error) {
	if s.setupErr != nil {
		return startOut{}, tool.Wrap(tool.Internal, s.setupErr, "sessions cannot start: %v", s.setupErr)
	}
	conf, err := s.confinement()
	if err != nil {
		return startOut{}, err
	}
	if needsUserNS() {
		if b := usernsBlocked(kernelpath.Proc); b != nil {
			return startOut{}, b.refusal()
		}
	}
	name, path, err := s.program(in.Command)
	if err != nil {
		return startOut{}, err
	}
	roots, releaseRoots, err := s.roots.ForCall(ctx, call)
	if err != nil {
		return startOut{}, err
	}
	defer releaseRoots()
	dir, err := resolveCwd(roots.Roots(), in.Cwd)
	if err != nil {
		return startOut{}, err
	}
	if err := s.checkArgs(name, in.Command[1:], roots.Roots(), dir); err != nil {
		return startOut{}, err
	}
	if err := checkEnv(in.Env); err != nil {
		return startOut{}, err
	}
	pty := in.PTY == nil || *in.PTY
	p := startPreview(name, in.Command, dir, in.Env, pty, conf)
	if in.DryRun {
		plan, err := call.DryRun(p)
		return startOut{Command: in.Command, Cwd: dir, PTY: pty, Plan: plan}, err
	}
	if err := call.Confirm(p); err != nil {
		return startOut{}, err
	}
	release, err := s.reg.reserve(call.Session)
	if err != nil {
		return startOut{}, err
	}
	defer release()
	home := filepath.Join(s.stateDir, "session")
	env, err := s.environ(in.Env, home)
	if err != nil {
		return startOut{}, err
	}
	spec := launchSpec{
		path:  path,
		argv:  in.Command,
		dir:   dir,
		env:   env,
		pty:   pty,
		setup: sessinit.Setup{Cover: s.stateDir, Home: home, HomeBytes: homeBytes, Confined: conf.landlock, User: s.user},
	}
	if conf.landlock {
		spec.ruleset = func(tty *os.File) (*os.File, error) { return s.ruleset(roots, path, tty, conf.tcp) }
	}
	sess, err := launch(s.spawn, spec, s.conf.BufferBytes)
	if err != nil {
		if te := (*tool.Error)(nil); errors.As(err, &te) {
			return startOut{}, te
		}
		return startOut{}, tool.Wrap(tool.ExecutionFailed, err, "starting %s: %s", tool.Clip(in.Command[0]), tool.Clip(err.Error()))
	}
	if conf.warning != "" {
		call.Warn("%s", conf.warning)
	}
	sess.owner = call.Session
	s.reg.add(sess)

	wait := defaultStartWait
	if in.WaitMs != nil {
		wait = time.Duration(*in.WaitMs) * time.Millisecond
	}
	sess.wait(ctx, waitRule{quiet: startQuiet, deadline: time.Now().Add(wait)})
	return startOut{
		ProcID:  sess.id,
		PID:     sess.programPID,
		Command: sess.argv,
		Cwd:     dir,
		PTY:     spec.pty,
		chunk:   sess.collect(0, 0, firstOutputMax, true),
	}, nil
}
