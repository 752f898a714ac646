package repl

import (
	"context"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// proc_start, proc_send and proc_stop answer a dry run with what they
// would do and do nothing; under a [confirm] rule they ask first, and a
// decline leaves the session as it was.
func TestSessionDryRunsAndConfirmation(t *testing.T) {
	testutil.RequireBinary(t, "python3")
	s := newTestSet(t, nil)
	ctx := context.Background()
	dry := mustRun[startOut](t, s.start(), map[string]any{"command": []string{"python3"}, "dry_run": true})
	if dry.ProcID != "" || dry.Plan == nil || !strings.HasPrefix(dry.Plan.Summary, `Start "python3" in `) || len(s.reg.list()) != 0 {
		t.Fatalf("start dry run: %+v, sessions %d", dry, len(s.reg.list()))
	}
	_, asked, terr := tooltest.RunAsked[startOut](t, ctx, s.start(), map[string]any{"command": []string{"python3"}}, tooltest.Decline, "program=python3")
	if terr == nil || terr.Code != tool.Declined || len(asked) != 1 || asked[0].Summary != dry.Plan.Summary || len(s.reg.list()) != 0 {
		t.Fatalf("declined start: %+v, asked %+v, sessions %d", terr, asked, len(s.reg.list()))
	}

	st := startPython(t, s)
	sent := mustRun[sendOut](t, s.send(), map[string]any{"proc_id": st.ProcID, "input": "open('x','w')", "dry_run": true})
	if sent.BytesWritten != 0 || sent.Plan == nil || !strings.Contains(sent.Plan.Summary, `"open('x','w')"`) {
		t.Fatalf("send dry run: %+v", sent)
	}
	if got := eval(t, s, st.ProcID, "1+1"); got != "1+1\n2\n>>> " {
		t.Fatalf("after a dry run of proc_send the session shows %q: the dry run typed something", got)
	}
	_, asked, terr = tooltest.RunAsked[stopOut](t, ctx, s.stopTool(), map[string]any{"proc_id": st.ProcID}, tooltest.Decline, "running")
	if terr == nil || terr.Code != tool.Declined || len(asked) != 1 || !strings.Contains(asked[0].Summary, "SIGTERM, then SIGKILL after 2000 ms") {
		t.Fatalf("declined stop: %+v, asked %+v", terr, asked)
	}
	stop := mustRun[stopOut](t, s.stopTool(), map[string]any{"proc_id": st.ProcID, "dry_run": true})
	if stop.Plan == nil || stop.State != stateRunning {
		t.Fatalf("stop dry run: %+v", stop)
	}
	if got := eval(t, s, st.ProcID, "2+2"); got != "2+2\n4\n>>> " {
		t.Fatalf("after a declined stop and a dry run the session shows %q", got)
	}
}
