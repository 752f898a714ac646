package bpftrace

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/jobs"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type execIn struct {
	Program        string `json:"program" jsonschema:"bpftrace program text"`
	TimeoutSeconds int    `json:"timeout,omitempty" jsonschema:"seconds; at most the configured 60" default:"10"`
	DryRun         bool   `json:"dry_run,omitempty" jsonschema:"check it; attach and run nothing"`
}

type execOut struct {
	ExecutionID    string     `json:"execution_id" jsonschema:"for bpftrace_get_result and bpftrace_stop; empty on a dry run"`
	Status         string     `json:"status" jsonschema:"running, or checked on a dry run"`
	TimeoutSeconds int        `json:"timeout_seconds"`
	Probes         []string   `json:"probes" jsonschema:"the attach points, as bpftrace reads the program"`
	Plan           *tool.Plan `json:"plan,omitempty"`
}

// execFacts are what [confirm] conditions on bpftrace_exec_program test.
var execFacts = []tool.Fact{
	{Name: "probes", Kind: tool.FactNumber, Doc: "attach points of the program"},
	{Name: "uprobes", Kind: tool.FactBool, Doc: "it attaches to user-space code (uprobe, uretprobe, usdt)"},
	{Name: "timeout", Kind: tool.FactNumber, Doc: "seconds it may run"},
}

// maxProgram bounds a program's text.
const maxProgram = 64 << 10

// errorAt is bpftrace's error position: "stdin:3:12-20: ERROR: message".
var errorAt = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^stdin:(\d+):(\d+)(?:-\d+)?: ERROR: (.*)$`) })

func (s *Set) execProgram() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "bpftrace_exec_program",
		Kind:        tool.Mutating,
		Programs:    true,
		Title:       "Run a bpftrace program",
		Description: "Check a bpftrace program (errors with line and column) and run it in the background until timeout.",
		Timeout:     30 * time.Second,
		Facts:       execFacts,
	}, s.handleExec).WithRange("timeout", 1, 3600).WithMaxLength("program", maxProgram).
		WithAlias("duration_seconds", "timeout")
}

func (s *Set) handleExec(ctx context.Context, call *tool.Call, in execIn) (execOut, error) {
	if err := s.available(); err != nil {
		return execOut{}, err
	}
	if strings.TrimSpace(in.Program) == "" || len(in.Program) > maxProgram {
		return execOut{}, tool.Errorf(tool.InvalidArgument, "program must be 1 to %d bytes of bpftrace", maxProgram)
	}
	timeout := s.conf.DefaultTimeout.Duration
	if in.TimeoutSeconds > 0 {
		timeout = time.Duration(in.TimeoutSeconds) * time.Second
	}
	if timeout > s.conf.MaxTimeout.Duration {
		return execOut{}, tool.Errorf(tool.InvalidDuration, "timeout %s is above the maximum %s", timeout, s.conf.MaxTimeout).
			WithSuggestion("Use timeout %d or less; aggregate in maps rather than running longer.", int(s.conf.MaxTimeout.Seconds()))
	}
	probes, err := s.check(ctx, in.Program)
	if err != nil {
		return execOut{}, err
	}
	p := execPreview(in.Program, probes, timeout)
	if in.DryRun {
		out := execOut{Status: "checked", TimeoutSeconds: int(timeout / time.Second), Probes: probes}
		out.Plan, err = call.DryRun(p)
		return out, err
	}
	if err := call.Confirm(p); err != nil {
		return execOut{}, err
	}
	j, err := s.jobs.Start(timeout, func(ctx context.Context, j *jobs.Job) error { return s.run(ctx, j, in.Program) })
	if errors.Is(err, jobs.ErrLimit) {
		return execOut{}, tool.Errorf(tool.LimitReached, "%d bpftrace programs are running already", s.conf.MaxConcurrent).
			WithSuggestion("Wait for one to finish, or stop one with bpftrace_stop.")
	}
	if err != nil {
		return execOut{}, tool.Wrap(tool.Internal, err, "%v", err)
	}
	return execOut{ExecutionID: j.ID, Status: jobs.Running, TimeoutSeconds: int(timeout / time.Second), Probes: probes}, nil
}

// execPreview is what running program would do: attach to probes for up
// to timeout. Its state is the program's text and the probes as bpftrace
// read them, which a changed kernel or binary may change.
func execPreview(program string, probes []string, timeout time.Duration) tool.Preview {
	uprobes := false
	for _, p := range probes {
		kind, _, _ := strings.Cut(p, ":")
		if kind == "uprobe" || kind == "uretprobe" || kind == "usdt" || kind == "u" || kind == "ur" || kind == "U" {
			uprobes = true
		}
	}
	shown := probes[:min(len(probes), 3)]
	clipped := make([]string, len(shown))
	for i, p := range shown {
		clipped[i] = tool.Clip(p)
	}
	lines := int64(strings.Count(strings.TrimRight(program, "\n"), "\n") + 1)
	summary := fmt.Sprintf("Run a bpftrace program of %s as root for up to %s, attached to %s: %s",
		figures.Counted(lines, "line", "lines"), timeout, figures.Counted(int64(len(probes)), "probe", "probes"), strings.Join(clipped, ", "))
	if len(probes) > len(shown) {
		summary += fmt.Sprintf(" and %d more", len(probes)-len(shown))
	}
	return tool.Preview{
		Summary: summary,
		Facts:   map[string]any{"probes": len(probes), "uprobes": uprobes, "timeout": int64(timeout / time.Second)},
		State:   tool.StateOf(program, strings.Join(probes, "\x00"), timeout),
	}
}

// check refuses a program that may not run here, or that bpftrace itself
// refuses. The text is scanned first (checkSource: what bpftrace would act
// on while checking); then bpftrace's dry run (-d: parse, semantic analysis
// and code generation, nothing attached) prints its reading of the program,
// whose calls and attach points are gated; an error of bpftrace's comes back
// with its position.
func (s *Set) check(ctx context.Context, program string) ([]string, error) {
	if err := checkSource(program); err != nil {
		return nil, err
	}
	res, err := s.exec.Run(ctx, execx.Cmd{Name: "bpftrace", Args: []string{"-d", "-e", program}, Timeout: 20 * time.Second, MaxOutput: maxDump})
	if err != nil {
		return nil, tool.Wrap(tool.ExecutionFailed, err, "checking the program: %v", err)
	}
	if res.StdoutTruncated {
		return nil, tool.Errorf(tool.LimitReached, "bpftrace's reading of the program is over %d MiB, too long to check", maxDump>>20).
			WithSuggestion("Split the program into smaller ones.")
	}
	out := string(res.Stdout)
	if err := s.gateCalls(dumpCalls(out)); err != nil {
		return nil, err
	}
	if res.ExitCode != 0 {
		return nil, bpftraceError(string(res.Stderr))
	}
	probes, err := dumpProbes(out)
	if err != nil {
		return nil, tool.Wrap(tool.ExecutionFailed, err, "bpftrace's reading of the program could not be checked: %v", err).
			WithSuggestion("Remove C comments and struct definitions that look like bpftrace's listing, or write the program more plainly.")
	}
	return probes, s.gateProbes(probes, loadTargetPolicy("/etc/shells", os.Geteuid()))
}

// maxDump bounds the dry run's output (its syntax trees, then LLVM IR).
const maxDump = 16 << 20

// bpftraceError turns bpftrace's complaint into a tool error, with the
// position when it gives one.
func bpftraceError(stderr string) error {
	if m := errorAt().FindStringSubmatch(stderr); m != nil {
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		return tool.Errorf(tool.InvalidArgument, "line %d, column %d: %s", line, col, tool.Clip(m[3])).
			WithSuggestion("Fix the program at line %d, column %d; bpftrace_list_helpers lists the builtins and bpftrace_list_probes the probes.", line, col)
	}
	var msg []string
	for _, l := range strings.Split(stderr, "\n") {
		if !noise(l) && len(msg) < 4 {
			msg = append(msg, tool.Clip(l)) // bpftrace echoes the program's lines
		}
	}
	return tool.Errorf(tool.InvalidArgument, "bpftrace refused the program: %s", strings.Join(msg, "; "))
}

// run runs the program under the job, one output line per record.
func (s *Set) run(ctx context.Context, j *jobs.Job, program string) error {
	res, err := s.exec.Run(ctx, execx.Cmd{
		Name: "bpftrace", Args: []string{"-f", "json", "-e", program},
		OnStdoutLine: func(line []byte) {
			if len(line) > 0 {
				j.AddLine(string(line))
			}
		},
		MaxOutput:  1 << 10,        // the lines go to the job; keep little here
		StopSignal: syscall.SIGINT, // bpftrace prints its maps on SIGINT
	})
	if err != nil {
		return err
	}
	j.SetExitCode(res.ExitCode)
	for _, l := range strings.Split(string(res.Stderr), "\n") {
		if !noise(l) {
			j.AddError(l)
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("bpftrace exited with %d", res.ExitCode)
	}
	return nil
}

type resultIn struct {
	ExecutionID string `json:"execution_id" jsonschema:"from bpftrace_exec_program"`
	Offset      int    `json:"offset,omitempty" jsonschema:"first record"`
	Limit       int    `json:"limit,omitempty" default:"200"`
}

type resultOut struct {
	ExecutionID  string   `json:"execution_id"`
	Status       string   `json:"status" jsonschema:"running, completed, failed, timeout or stopped"`
	Output       []any    `json:"output" jsonschema:"bpftrace -f json records: printf, map, hist, stats...; maps and histograms are structured"`
	Offset       int      `json:"offset"`
	LinesTotal   int      `json:"lines_total"`
	LinesDropped int      `json:"lines_dropped" jsonschema:"records beyond the buffer cap, not kept"`
	HasMore      bool     `json:"has_more"`
	ExitCode     *int     `json:"exit_code,omitempty"`
	Errors       []string `json:"errors"`
	DurationMS   int64    `json:"duration_ms"`
}

func (s *Set) getResult() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "bpftrace_get_result",
		Kind:        tool.ReadOnly,
		Title:       "Read a bpftrace run",
		Description: "Status and a page of a bpftrace run's output, with total, exit code and errors.",
		Timeout:     10 * time.Second,
	}, s.handleResult).WithRange("offset", 0, 1<<30).WithRange("limit", 1, 1000)
}

func (s *Set) handleResult(_ context.Context, _ *tool.Call, in resultIn) (resultOut, error) {
	limit := in.Limit
	if limit == 0 {
		limit = 200
	}
	snap, err := s.jobs.Get(in.ExecutionID, in.Offset, limit)
	if err != nil {
		return resultOut{}, notFound(in.ExecutionID)
	}
	out := resultOut{ExecutionID: snap.ID, Status: snap.Status, Offset: in.Offset, LinesTotal: snap.LinesTotal, LinesDropped: snap.Dropped,
		HasMore: in.Offset+len(snap.Lines) < snap.LinesTotal, ExitCode: snap.ExitCode, Errors: snap.Errors, Output: []any{}}
	end := snap.Ended
	if end.IsZero() {
		end = time.Now()
	}
	out.DurationMS = end.Sub(snap.Started).Milliseconds()
	for _, l := range snap.Lines {
		var rec any
		if json.Unmarshal([]byte(l), &rec) != nil {
			rec = map[string]any{"type": "text", "data": l}
		}
		out.Output = append(out.Output, rec)
	}
	return out, nil
}

type stopIn struct {
	ExecutionID string `json:"execution_id" jsonschema:"from bpftrace_exec_program"`
}

func (s *Set) stop() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "bpftrace_stop",
		Kind:        tool.Mutating,
		Title:       "Stop a bpftrace run",
		Description: "Stop a bpftrace run (its maps are printed) and return its status and first page of output.",
		Timeout:     30 * time.Second,
	}, s.handleStop)
}

func (s *Set) handleStop(ctx context.Context, call *tool.Call, in stopIn) (resultOut, error) {
	if err := s.jobs.Stop(in.ExecutionID); err != nil {
		return resultOut{}, notFound(in.ExecutionID)
	}
	return s.handleResult(ctx, call, resultIn{ExecutionID: in.ExecutionID})
}

func notFound(id string) error {
	return tool.Errorf(tool.NotFound, "no bpftrace run %q (finished runs are kept for a while, then forgotten)", tool.Clip(id)).
		WithSuggestion("Start the program again with bpftrace_exec_program.")
}
