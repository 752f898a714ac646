package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type usageView struct {
	Tools []struct {
		Tool         string           `json:"tool"`
		Calls        int64            `json:"calls"`
		Errors       int64            `json:"errors"`
		ErrorsByCode map[string]int64 `json:"errors_by_code"`
		P50MS        float64          `json:"p50_ms"`
		P99MS        float64          `json:"p99_ms"`
		BytesOut     int64            `json:"bytes_returned"`
	} `json:"tools"`
	Total struct {
		Calls  int64 `json:"calls"`
		Errors int64 `json:"errors"`
	} `json:"total"`
}

type recentView struct {
	Calls []struct {
		Tool      string `json:"tool"`
		Outcome   string `json:"outcome"`
		ErrorCode string `json:"error_code"`
		Args      string `json:"args"`
		Time      string `json:"time"`
	} `json:"calls"`
}

// After a known sequence of calls, some failing, the usage stats and the
// recent calls match it exactly, and still do after a restart on the same
// state directory.
func TestUsageStatsMatchCalls(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t, "")
	if err := os.WriteFile(filepath.Join(e.root, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := e.connectStdio(t, ctx)
	tools := listTools(t, ctx, cs)
	sequence := []struct {
		tool string
		args map[string]any
		code string // "" when it succeeds
	}{
		{"fs_read", map[string]any{"path": "a.txt"}, ""},
		{"fs_write", map[string]any{"path": "b.txt", "content": "x\n"}, ""},
		{"fs_read", map[string]any{"path": "missing.txt"}, "NOT_FOUND"},
		{"fs_list", map[string]any{"path": "."}, ""},
		{"proc_kill", map[string]any{"pid": 1}, "KILL_FORBIDDEN"},
		{"fs_read", map[string]any{"path": "b.txt"}, ""},
	}
	for _, c := range sequence {
		env, _ := call(t, ctx, cs, tools, c.tool, c.args)
		if got := ""; !env.Success {
			got = env.Error.Code
			if got != c.code {
				t.Fatalf("%s: got %q, want %q", c.tool, got, c.code)
			}
		} else if c.code != "" {
			t.Fatalf("%s succeeded, want %s", c.tool, c.code)
		}
	}
	check := func(u usageView, extra map[string]int64) {
		t.Helper()
		want := map[string][3]int64{ // calls, errors, errors of the named code
			"fs_read": {3, 1, 1}, "fs_write": {1, 0, 0}, "fs_list": {1, 0, 0}, "proc_kill": {1, 1, 1},
		}
		codes := map[string]string{"fs_read": "NOT_FOUND", "proc_kill": "KILL_FORBIDDEN"}
		total := int64(6)
		for tool, n := range extra {
			want[tool] = [3]int64{n, 0, 0}
			total += n
		}
		if len(u.Tools) != len(want) || u.Total.Calls != total || u.Total.Errors != 2 {
			t.Fatalf("usage %+v, want tools %v and %d calls, 2 errors", u, want, total)
		}
		for _, ts := range u.Tools {
			w, ok := want[ts.Tool]
			if !ok || ts.Calls != w[0] || ts.Errors != w[1] || ts.ErrorsByCode[codes[ts.Tool]] != w[2] || ts.BytesOut <= 0 || ts.P99MS < ts.P50MS {
				t.Errorf("%s: %+v, want calls %d errors %d", ts.Tool, ts, w[0], w[1])
			}
		}
	}
	var u usageView
	mustEnvelope(t, ctx, cs, tools, "mcp_usage_stats", map[string]any{}, &u)
	check(u, nil)

	var r recentView
	mustEnvelope(t, ctx, cs, tools, "mcp_recent_calls", map[string]any{"max_results": 10}, &r)
	if len(r.Calls) != 7 || r.Calls[0].Tool != "mcp_usage_stats" {
		t.Fatalf("recent calls: %+v", r.Calls)
	}
	for i, c := range sequence { // the rest, newest first
		got := r.Calls[len(sequence)-i]
		wantOutcome := "ok"
		if c.code != "" {
			wantOutcome = "error"
		}
		if got.Tool != c.tool || got.Outcome != wantOutcome || got.ErrorCode != c.code || got.Time == "" {
			t.Errorf("recent call %d: %+v, want %s %s %s", len(sequence)-i, got, c.tool, wantOutcome, c.code)
		}
	}
	if r.Calls[6].Args != `path="a.txt"` {
		t.Errorf("argument summary %q", r.Calls[6].Args)
	}
	var errs recentView
	mustEnvelope(t, ctx, cs, tools, "mcp_recent_calls", map[string]any{"outcome": "error"}, &errs)
	if len(errs.Calls) != 2 || errs.Calls[0].ErrorCode != "KILL_FORBIDDEN" || errs.Calls[1].ErrorCode != "NOT_FOUND" {
		t.Fatalf("failed calls: %+v", errs.Calls)
	}
	cs.Close()

	// A new server on the same state: the same records, plus the stats calls above.
	cs2 := e.connectStdio(t, ctx)
	tools2 := listTools(t, ctx, cs2)
	mustEnvelope(t, ctx, cs2, tools2, "mcp_usage_stats", map[string]any{}, &u)
	check(u, map[string]int64{"mcp_usage_stats": 1, "mcp_recent_calls": 2})
	mustEnvelope(t, ctx, cs2, tools2, "mcp_usage_stats", map[string]any{"tool": "fs_read"}, &u)
	if len(u.Tools) != 1 || u.Total.Calls != 3 || u.Total.Errors != 1 {
		t.Fatalf("fs_read only: %+v", u)
	}
	env, _ := call(t, ctx, cs2, tools2, "mcp_usage_stats", map[string]any{"since": "yesterday"})
	if env.Success || env.Error.Code != "INVALID_ARGUMENT" || env.Error.Suggestion == "" {
		t.Fatalf("a bad since: %+v", env)
	}
}

// mustEnvelope calls a tool that must succeed and decodes its data.
func mustEnvelope(t *testing.T, ctx context.Context, cs *mcp.ClientSession, tools map[string]*mcp.Tool, name string, args any, v any) {
	t.Helper()
	env, _ := call(t, ctx, cs, tools, name, args)
	mustData(t, env, v)
}
