package proc

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/procs"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type killIn struct {
	PID    int    `json:"pid" jsonschema:"one process"`
	Signal string `json:"signal,omitempty" default:"TERM"`
	WaitMS int    `json:"wait_ms,omitempty" jsonschema:"wait for the exit" default:"0"`
	DryRun bool   `json:"dry_run,omitempty"`
}

type killOut struct {
	Success   bool       `json:"success" jsonschema:"false for a dry run"`
	Message   string     `json:"message"`
	PID       int        `json:"pid"`
	Name      string     `json:"name"`
	User      string     `json:"user"`
	Signal    string     `json:"signal"`
	Waited    bool       `json:"waited" jsonschema:"true when wait_ms was given"`
	Exited    bool       `json:"exited" jsonschema:"true when the process exited within wait_ms; false when it did not or was not waited for"`
	StartTime string     `json:"start_time" jsonschema:"when the process started, RFC 3339, UTC"`
	Command   string     `json:"command,omitempty" jsonschema:"its command line, cut to 160 bytes"`
	Children  []int      `json:"children" jsonschema:"pids of its direct children, at most 64"`
	ChildrenN int        `json:"children_total" jsonschema:"its direct children, all counted"`
	Plan      *tool.Plan `json:"plan,omitempty"`
}

// killFacts are what [confirm] conditions on proc_kill test.
var killFacts = []tool.Fact{
	{Name: "signal", Kind: tool.FactString, Doc: "the signal it sends: TERM, KILL, INT or HUP"},
	{Name: "other_user", Kind: tool.FactBool, Doc: "the process's real or effective user is not the server's (allow_kill_other_users)"},
	{Name: "children", Kind: tool.FactNumber, Doc: "the process's direct children"},
}

// maxShownChildren bounds the child pids an answer lists.
const maxShownChildren = 64

var signals = map[string]unix.Signal{"TERM": unix.SIGTERM, "KILL": unix.SIGKILL, "INT": unix.SIGINT, "HUP": unix.SIGHUP}

const maxWaitMS = 10000

func (s *Set) kill() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "proc_kill",
		Kind:        tool.Destructive,
		Title:       "Signal a process",
		Description: "Signal one process via pidfd, optionally awaiting its exit; never PID 1, this server or its ancestors.",
		Timeout:     15 * time.Second,
		Facts:       killFacts,
	}, s.handleKill).WithEnum("signal", "TERM", "KILL", "INT", "HUP").WithRange("wait_ms", 0, maxWaitMS)
}

func (s *Set) handleKill(ctx context.Context, call *tool.Call, in killIn) (killOut, error) {
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
	out, p, err := s.killPlan(ctx, &t, name)
	if err != nil {
		return killOut{}, err
	}
	if in.DryRun {
		out.Message = "Dry run, nothing sent. It would: " + p.Summary
		out.Plan, err = call.DryRun(p)
		return out, err
	}
	if err := call.Confirm(p); err != nil {
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
	out.Success, out.Message, out.Waited, out.Exited = true, msg, wait > 0, exited
	return out, nil
}

// killPlan is what signalling the validated process t would do: the
// answer's description of t (owner, start, children) and the preview a
// dry run shows and a person is asked. Its state is the process's
// identity (pid and start time), its users and the signal: a yes holds
// for that process only, never for a later one with the same pid.
func (s *Set) killPlan(ctx context.Context, t *target, signal string) (killOut, tool.Preview, error) {
	boot, err := s.reader.BootTime()
	if err != nil {
		return killOut{}, tool.Preview{}, tool.Wrap(tool.ExecutionFailed, err, "reading the boot time: %v", err)
	}
	table, err := s.reader.All(ctx, func(*procs.Process) bool { return false })
	if err != nil {
		return killOut{}, tool.Preview{}, tool.Wrap(tool.ExecutionFailed, err, "reading the process table: %v", err)
	}
	children := []int{}
	n := 0
	for _, p := range table.Procs {
		if p.PPID == t.PID {
			n++
			if len(children) < maxShownChildren {
				children = append(children, p.PID)
			}
		}
	}
	started := time.Unix(boot, 0).Add(time.Duration(t.StartTicks) * time.Second / procs.ClockTicks)
	out := killOut{PID: t.PID, Name: t.Comm, User: t.user, Signal: signal, StartTime: started.UTC().Format(time.RFC3339), Children: children, ChildrenN: n}
	if s.visible(&t.Process) {
		out.Command, _ = cutCommand(t.Cmdline, treeCommand)
	}
	other := t.RUID != s.uid || t.EUID != s.uid
	summary := fmt.Sprintf("Send SIG%s to pid %d %s (%s, running %s, %s)", signal, t.PID, tool.Clip(t.Comm), t.user,
		figures.Span(time.Since(started)), figures.Counted(int64(n), "child", "children"))
	return out, tool.Preview{
		Summary: summary,
		Facts:   map[string]any{"signal": signal, "other_user": other, "children": n},
		State:   tool.StateOf(t.PID, t.StartTicks, t.RUID, t.EUID, signal),
	}, nil
}
