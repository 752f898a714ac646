package repl

import (
	"context"
	"os"
	"time"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// startIn is the input of proc_start.
type startIn struct {
	Command []string          `json:"command" jsonschema:"program and arguments, argv style and never through a shell, like [\"python3\"] or [\"node\", \"--interactive\"]; the program must be allowlisted (proc_sessions lists them)"`
	Cwd     string            `json:"cwd,omitempty" jsonschema:"working directory inside the allowed roots; relative to the first root; default the first root"`
	Env     map[string]string `json:"env,omitempty" jsonschema:"extra environment variables on top of a scrubbed base (TERM, LANG, a private HOME); PATH and LD_* are refused"`
	PTY     *bool             `json:"pty,omitempty" jsonschema:"run under a pseudo-terminal, as a REPL expects; false uses plain pipes with stderr merged into stdout; default true"`
	WaitMs  *int              `json:"wait_ms,omitempty" jsonschema:"longest wait for the first output, in ms, 0 to 30000; it ends early at a prompt or after 300 ms of quiet; default 5000"`
}

// startOut is the answer of proc_start.
type startOut struct {
	ProcID  string   `json:"proc_id" jsonschema:"the session's id for proc_send, proc_read and proc_stop"`
	PID     int      `json:"pid" jsonschema:"process id of the program (it runs in its own PID namespace under a small init, which leads its process group)"`
	Command []string `json:"command" jsonschema:"the argv that was started"`
	Cwd     string   `json:"cwd" jsonschema:"the directory it runs in"`
	PTY     bool     `json:"pty" jsonschema:"whether it runs under a pseudo-terminal"`
	chunk
}

const (
	defaultStartWait = 5 * time.Second
	startQuiet       = 300 * time.Millisecond
	firstOutputMax   = 16 << 10
)

func (s *Set) start() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "proc_start",
		Kind:        tool.Mutating,
		Title:       "Start an interactive session",
		Description: "Start an allowlisted interactive program (python3, node, ...) under a pseudo-terminal and return its proc_id and first output; continue with proc_send and proc_read.",
		Timeout:     40 * time.Second,
	}, s.handleStart).WithRange("wait_ms", 0, 30000).WithMaxItems("command", maxArgs, maxArgBytes)
}

func (s *Set) handleStart(ctx context.Context, call *tool.Call, in startIn) (startOut, error) {
	if s.setupErr != nil {
		return startOut{}, tool.Wrap(tool.Internal, s.setupErr, "sessions cannot start: %v", s.setupErr)
	}
	path, err := s.program(in.Command)
	if err != nil {
		return startOut{}, err
	}
	dir, err := resolveCwd(s.roots, in.Cwd)
	if err != nil {
		return startOut{}, err
	}
	release, err := s.reg.reserve(call.Session)
	if err != nil {
		return startOut{}, err
	}
	defer release()
	home, err := os.MkdirTemp("", "hostmcp-repl-")
	if err != nil {
		return startOut{}, tool.Wrap(tool.ExecutionFailed, err, "creating the session's HOME: %v", err)
	}
	env, err := s.environ(in.Env, home)
	if err != nil {
		os.RemoveAll(home)
		return startOut{}, err
	}
	pty := in.PTY == nil || *in.PTY
	sess, err := launch(&s.spawn, launchSpec{path: path, argv: in.Command, dir: dir, env: env, pty: pty, home: home}, s.conf.BufferBytes)
	if err != nil {
		os.RemoveAll(home)
		return startOut{}, tool.Wrap(tool.ExecutionFailed, err, "starting %s: %s", tool.Clip(in.Command[0]), tool.Clip(err.Error()))
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
		PTY:     pty,
		chunk:   sess.collect(0, 0, firstOutputMax, true),
	}, nil
}
