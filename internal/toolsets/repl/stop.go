package repl

import (
	"cmp"
	"context"
	"syscall"
	"time"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// stopIn is the input of proc_stop.
type stopIn struct {
	ProcID  string `json:"proc_id" jsonschema:"from proc_start"`
	Signal  string `json:"signal,omitempty" default:"TERM"`
	GraceMs *int   `json:"grace_ms,omitempty" jsonschema:"before SIGKILL" default:"2000"`
	DryRun  bool   `json:"dry_run,omitempty"`
}

// stopOut is the answer of proc_stop.
type stopOut struct {
	ProcID    string `json:"proc_id" jsonschema:"the session"`
	Escalated bool   `json:"escalated" jsonschema:"the program outlived the grace period and was killed with SIGKILL"`
	Output    string `json:"output" jsonschema:"the last output not yet read, up to 4096 bytes, escape sequences removed"`
	status
	Plan *tool.Plan `json:"plan,omitempty" jsonschema:"dry run: what it would do; nothing is signalled and no output is consumed"`
}

var stopSignals = map[string]syscall.Signal{
	"TERM": syscall.SIGTERM,
	"INT":  syscall.SIGINT,
	"HUP":  syscall.SIGHUP,
	"KILL": syscall.SIGKILL,
}

const (
	defaultStopGrace = 2 * time.Second
	stopTailBytes    = 4 << 10
)

func (s *Set) stopTool() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "proc_stop",
		Kind:        tool.Mutating,
		Idempotent:  true,
		Title:       "Stop a session",
		Description: "Stop a session's process group: a signal, then SIGKILL after grace_ms.",
		Timeout:     20 * time.Second,
		Facts:       stopFacts,
	}, s.handleStop).
		WithEnum("signal", "TERM", "INT", "HUP", "KILL").
		WithRange("grace_ms", 0, 10000)
}

func (s *Set) handleStop(ctx context.Context, call *tool.Call, in stopIn) (stopOut, error) {
	sess, err := s.reg.get(in.ProcID)
	if err != nil {
		return stopOut{}, err
	}
	name := cmp.Or(in.Signal, "TERM")
	sig := stopSignals[name]
	grace := defaultStopGrace
	if in.GraceMs != nil {
		grace = time.Duration(*in.GraceMs) * time.Millisecond
	}
	out := stopOut{ProcID: sess.id}
	p := stopPreview(sess, name, sig, grace)
	if in.DryRun {
		sess.mu.Lock()
		out.status = sess.statusLocked()
		sess.mu.Unlock()
		out.Plan, err = call.DryRun(p)
		return out, err
	}
	if err := call.Confirm(p); err != nil {
		return stopOut{}, err
	}
	if sess.running() {
		out.Escalated = sess.stop(sig, grace, "proc_stop")
	}
	sess.mu.Lock()
	from := sess.cursor
	sess.mu.Unlock()
	c := sess.collect(from, 0, 1<<30, true)
	if len(c.Output) > stopTailBytes {
		c.Output = c.Output[len(c.Output)-stopTailBytes:]
	}
	out.Output, out.status = c.Output, c.status
	return out, nil
}
