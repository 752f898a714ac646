package e2e

import (
	"encoding/json"
	"sync"
	"testing"
	"time"
)

// TestStdioRateLimit drives one stdio session past its burst: the calls
// beyond it are answered RATE_LIMITED with retry_after_ms (the next
// token's time, at most a refill period), the audit keeps them with their
// code, and a call made after waiting the time told is served.
func TestStdioRateLimit(t *testing.T) {
	// Most of it is waiting for a token to come back: it runs beside others.
	t.Parallel()
	const burst, perSecond = 3, 0.2 // a token every 5 s: the burst is spent long before one comes back
	ctx := testCtx(t)
	e := newEnv(t, "[load]\ncalls_per_second = 0.2\nburst = 3\n")
	cs := e.connectStdio(t, ctx)
	tools := listTools(t, ctx, cs) // not a tool call: spends no token

	start := time.Now()
	envs := make([]envelope, 6)
	var wg sync.WaitGroup
	for i := range envs {
		wg.Go(func() { envs[i], _ = callOnce(t, ctx, cs, tools, "fs_list", map[string]any{"path": "."}) })
	}
	wg.Wait()
	elapsed := time.Since(start)
	served, limited := 0, 0
	var retry time.Duration
	for _, env := range envs {
		switch {
		case env.Success:
			served++
		case env.Error.Code == "RATE_LIMITED":
			limited++
			ms := env.Error.RetryAfterMS
			retry = max(retry, time.Duration(ms)*time.Millisecond)
			if ms <= 0 || ms > 5000 || !env.Error.Recoverable {
				t.Errorf("RATE_LIMITED with retry_after_ms %d (want 1 to 5000), recoverable %v", ms, env.Error.Recoverable)
			}
		default:
			t.Errorf("unexpected answer: %+v", env.Error)
		}
	}
	// Tokens come back at 0.2 per second while the calls are answered.
	if maxServed := burst + int(elapsed.Seconds()*perSecond); served < burst || served > maxServed || limited == 0 {
		t.Fatalf("%d served and %d limited in %s; want %d to %d served and the rest limited", served, limited, elapsed, burst, maxServed)
	}

	time.Sleep(retry)
	if env, _ := callOnce(t, ctx, cs, tools, "fs_list", map[string]any{"path": "."}); !env.Success {
		t.Errorf("after waiting retry_after_ms: %+v", env.Error)
	}

	// The audit, read by another process on the same state directory,
	// which has a bucket of its own.
	out, code := runCLI(t, e.args("call", "mcp_recent_calls", `{"tool":"fs_list","max_results":20}`)...)
	var rec struct {
		Data recentView `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil || code != 0 {
		t.Fatalf("mcp_recent_calls: exit %d, %v\n%s", code, err, out)
	}
	audited := 0
	for _, c := range rec.Data.Calls {
		if c.ErrorCode == "RATE_LIMITED" && c.Outcome == "error" {
			audited++
		}
	}
	if audited != limited {
		t.Errorf("the audit keeps %d RATE_LIMITED calls, want %d: %+v", audited, limited, rec.Data.Calls)
	}
}
