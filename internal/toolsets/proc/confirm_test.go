package proc

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// A dry run of proc_kill names the process, its owner, start time and
// children, and signals nothing; a declined KILL leaves it running; an
// accepted one ends it, as previewed.
func TestKillDryRunAndConfirmationLive(t *testing.T) {
	s := newSet(config.ProcessConf{})
	d := s.kill()
	ctx := context.Background()
	c := child(t, "parent", nil)
	pid := c.Process.Pid
	var out killOut
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		out = tooltest.MustRun[killOut](t, ctx, d, map[string]any{"pid": pid, "signal": "KILL", "dry_run": true})
		if out.ChildrenN == 2 || time.Now().After(deadline) {
			break
		}
	}
	if out.Success || out.ChildrenN != 2 || len(out.Children) != 2 || out.StartTime == "" || out.Plan == nil {
		t.Fatalf("dry run: %+v", out)
	}
	wantSummary := fmt.Sprintf("Send SIGKILL to pid %d %s (%s, running ", pid, out.Name, out.User)
	if !strings.HasPrefix(out.Plan.Summary, wantSummary) || !strings.HasSuffix(out.Plan.Summary, ", 2 children)") {
		t.Errorf("summary %q, want %q... 2 children)", out.Plan.Summary, wantSummary)
	}
	if _, err := time.Parse(time.RFC3339, out.StartTime); err != nil {
		t.Errorf("start_time %q: %v", out.StartTime, err)
	}
	if !alive(pid) {
		t.Fatal("the dry run ended the process")
	}

	_, asked, terr := tooltest.RunAsked[killOut](t, ctx, d, map[string]any{"pid": pid, "signal": "KILL"}, tooltest.Decline, "signal=KILL")
	if terr == nil || terr.Code != tool.Declined || len(asked) != 1 || asked[0].Summary != out.Plan.Summary {
		t.Fatalf("declined: %+v, asked %+v", terr, asked)
	}
	if !alive(pid) {
		t.Fatal("a declined KILL ended the process")
	}
	// TERM is not what the condition names: it goes ahead unasked.
	got, asked, terr := tooltest.RunAsked[killOut](t, ctx, d, map[string]any{"pid": pid, "signal": "TERM", "dry_run": true}, tooltest.Decline, "signal=KILL")
	if terr != nil || len(asked) != 0 || got.Plan == nil || got.Plan.NeedsConfirmation {
		t.Fatalf("a TERM dry run under signal=KILL: %+v, %+v, asked %+v", got, terr, asked)
	}

	got, asked, terr = tooltest.RunAsked[killOut](t, ctx, d, map[string]any{"pid": pid, "signal": "KILL", "wait_ms": 5000}, tooltest.Accept, "signal=KILL")
	if terr != nil || len(asked) != 1 || !got.Success || !got.Exited {
		t.Fatalf("accepted: %+v, %+v, asked %+v", got, terr, asked)
	}
	err := c.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("child ended with %v, want SIGKILL", err)
	}
}
