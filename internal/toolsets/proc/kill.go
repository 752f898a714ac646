package proc

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/tool"
)

type killIn struct {
	PID    int    `json:"pid" jsonschema:"one process"`
	Signal string `json:"signal,omitempty" default:"TERM"`
	WaitMS int    `json:"wait_ms,omitempty" jsonschema:"wait for the exit" default:"0"`
}

type killOut struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
	PID     int    `json:"pid"`
	Name    string `json:"name"`
	User    string `json:"user"`
	Signal  string `json:"signal"`
	Waited  bool   `json:"waited" jsonschema:"true when wait_ms was given"`
	Exited  bool   `json:"exited" jsonschema:"true when the process exited within wait_ms; false when it did not or was not waited for"`
}

var signals = map[string]unix.Signal{"TERM": unix.SIGTERM, "KILL": unix.SIGKILL, "INT": unix.SIGINT, "HUP": unix.SIGHUP}

const maxWaitMS = 10000

func (s *Set) kill() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "proc_kill",
		Kind:        tool.Destructive,
		Title:       "Signal a process",
		Description: "Signal one process via pidfd, optionally awaiting its exit; never PID 1, this server or its ancestors.",
		Timeout:     15 * time.Second,
	}, s.handleKill).WithEnum("signal", "TERM", "KILL", "INT", "HUP").WithRange("wait_ms", 0, maxWaitMS)
}

func (s *Set) handleKill(ctx context.Context, _ *tool.Call, in killIn) (killOut, error) {
	// The pid is checked first, before procfs is even looked at.
	if err := checkPIDRange(in.PID); err != nil {
		return killOut{}, err
	}
	name := cmp.Or(in.Signal, "TERM")
	sig, ok := signals[name]
	if !ok {
		return killOut{}, tool.Errorf(tool.InvalidArgument, "signal %q: want TERM, KILL, INT or HUP", in.Signal)
	}
	if in.WaitMS < 0 || in.WaitMS > maxWaitMS {
		return killOut{}, tool.Errorf(tool.InvalidArgument, "wait_ms %d: want 0 to %d", in.WaitMS, maxWaitMS)
	}
	if err := s.ready(); err != nil {
		return killOut{}, err
	}
	if err := s.signallable(); err != nil {
		return killOut{}, err
	}
	t, err := s.validate(in.PID)
	if err != nil {
		return killOut{}, err
	}
	wait := time.Duration(in.WaitMS) * time.Millisecond
	exited, err := s.signal(ctx, &t, sig, wait)
	if err != nil {
		return killOut{}, tool.AsError(err)
	}
	msg := fmt.Sprintf("Sent SIG%s to pid %d (%s)", name, t.PID, t.Comm)
	switch {
	case wait > 0 && exited:
		msg += fmt.Sprintf("; it exited within %d ms", in.WaitMS)
	case wait > 0:
		msg += fmt.Sprintf("; it was still running after %d ms", in.WaitMS)
	}
	return killOut{Success: true, Message: msg, PID: t.PID, Name: t.Comm, User: t.user, Signal: name, Waited: wait > 0, Exited: exited}, nil
}
