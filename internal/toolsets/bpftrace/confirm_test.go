package bpftrace

import (
	"context"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// A dry run checks the program and names its probes, running nothing; a
// declined run starts nothing either: with room for one run, the accepted
// run after them starts, and only then is the room taken.
func TestExecDryRunAndConfirmationLive(t *testing.T) {
	s := liveSet(t, func(c *config.BpftraceConf) { c.MaxConcurrent = 1 })
	ctx := context.Background()
	args := map[string]any{"program": "tracepoint:syscalls:sys_enter_nanosleep { @[comm] = count(); }", "timeout": 30}
	dry, terr := run[execOut](t, s.execProgram(), map[string]any{"program": args["program"], "timeout": 30, "dry_run": true})
	if terr != nil || dry.ExecutionID != "" || dry.Status != "checked" || strings.Join(dry.Probes, ",") != "tracepoint:syscalls:sys_enter_nanosleep" || dry.Plan == nil {
		t.Fatalf("dry run: %+v, %+v", dry, terr)
	}
	want := "Run a bpftrace program of 1 line as root for up to 30s, attached to 1 probe: tracepoint:syscalls:sys_enter_nanosleep"
	if dry.Plan.Summary != want {
		t.Errorf("summary %q, want %q", dry.Plan.Summary, want)
	}
	_, asked, terr := tooltest.RunAsked[execOut](t, ctx, s.execProgram(), args, tooltest.Decline, "probes>0")
	if terr == nil || terr.Code != tool.Declined || len(asked) != 1 || asked[0].Summary != want {
		t.Fatalf("declined: %+v, asked %+v", terr, asked)
	}
	out, asked, terr := tooltest.RunAsked[execOut](t, ctx, s.execProgram(), args, tooltest.Accept, "uprobes", "timeout>20")
	if terr != nil || len(asked) != 1 || out.ExecutionID == "" {
		t.Fatalf("accepted: %+v, %+v, asked %+v", out, terr, asked)
	}
	t.Cleanup(func() { _ = s.jobs.Stop(out.ExecutionID) })
	if _, terr := run[execOut](t, s.execProgram(), args); terr == nil || terr.Code != tool.LimitReached {
		t.Fatalf("a second run with room for one: %+v", terr)
	}
}
