package e2e

import (
	"context"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Progress notifications of a sampling tool strictly increase and never
// pass their total, whatever the revision; their message is sent from
// 2025-03-26 on, which defined it.
func TestProgressIncreases(t *testing.T) {
	t.Parallel() // most of it is three 1.5 s sampling intervals
	e := newEnv(t, "")
	for _, rev := range []string{"2024-11-05", "2025-06-18", "2026-07-28"} {
		t.Run(rev, func(t *testing.T) {
			ctx := testCtx(t)
			var mu sync.Mutex
			var got []*mcp.ProgressNotificationParams
			client := mcp.NewClient(&mcp.Implementation{Name: "e2e-progress", Version: "1"}, &mcp.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
					mu.Lock()
					got = append(got, req.Params)
					mu.Unlock()
				},
			})
			cmd := exec.Command(binary, e.args("serve")...)
			cmd.Stderr = &testLog{t: t}
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, &mcp.ClientSessionOptions{ProtocolVersion: rev})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			params := &mcp.CallToolParams{Name: "perf_use_check", Arguments: map[string]any{"interval_ms": 1500}}
			params.SetProgressToken("use-" + rev)
			res, err := cs.CallTool(ctx, params)
			if err != nil || res.IsError {
				t.Fatalf("perf_use_check: %v %+v", err, res)
			}
			// Notifications are sent before the result; they are handled in order.
			mu.Lock()
			defer mu.Unlock()
			if len(got) < 2 {
				t.Fatalf("%d progress notifications in 1.5 s, want several", len(got))
			}
			for i, p := range got {
				if p.ProgressToken != "use-"+rev {
					t.Errorf("notification %d has token %v", i, p.ProgressToken)
				}
				if p.Total != 1500 || p.Progress > p.Total {
					t.Errorf("notification %d: %v of %v, want at most the total 1500", i, p.Progress, p.Total)
				}
				if i > 0 && p.Progress <= got[i-1].Progress {
					t.Errorf("notification %d: %v after %v, want strictly increasing", i, p.Progress, got[i-1].Progress)
				}
				if hasMessage := p.Message != ""; hasMessage != (rev >= "2025-03-26") {
					t.Errorf("notification %d at %s: message %q", i, rev, p.Message)
				}
			}
		})
	}
}
