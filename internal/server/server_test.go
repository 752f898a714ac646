package server

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type noIn struct {
	Content string `json:"content,omitempty" jsonschema:"some content"`
}

func fakeSet(name string, def bool, kinds ...tool.Kind) tool.Toolset {
	ts := tool.Toolset{Name: name, Description: name, DefaultEnabled: def}
	for i, k := range kinds {
		n := name + "_" + string(rune('a'+i))
		ts.Tools = append(ts.Tools, tool.New(tool.Spec{Name: n, Title: n, Description: n, Kind: k},
			func(_ context.Context, _ *tool.Call, in noIn) (map[string]int, error) {
				if in.Content == "fail" {
					return nil, tool.Errorf(tool.NotFound, "nothing")
				}
				return map[string]int{"n": len(in.Content)}, nil
			}))
	}
	return ts
}

func sets() []tool.Toolset {
	logs := fakeSet("logs", false, tool.ReadOnly, tool.ReadOnly)
	logs.Tools[1].Spec.OffByDefault = true
	return []tool.Toolset{
		fakeSet("core", true, tool.ReadOnly),
		fakeSet("files", true, tool.ReadOnly, tool.Mutating, tool.Destructive),
		logs,
	}
}

func names(s *Server) []string {
	var out []string
	for _, d := range s.Tools() {
		out = append(out, d.Spec.Name)
	}
	return out
}

func newServer(t *testing.T, mutate func(*config.Config)) *Server {
	t.Helper()
	cfg := config.Default(t.TempDir(), 0, func(string) string { return "" })
	cfg.Confirm.Tools = nil // the fake toolsets have none of the tools the default rules name
	if mutate != nil {
		mutate(cfg)
	}
	st, err := store.Open(context.Background(), &store.Options{Path: filepath.Join(t.TempDir(), "s.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s, err := New(Options{Config: cfg, Store: st, Toolsets: sets()})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestToolSelection(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name   string
		mutate func(*config.Config)
		want   []string
	}{
		{"defaults", nil, []string{"core_a", "files_a", "files_b", "files_c"}},
		{"named toolsets keep core", func(c *config.Config) { c.Toolsets.Enabled = []string{"logs"} }, []string{"core_a", "logs_a"}},
		{"read-only", func(c *config.Config) { c.Toolsets.ReadOnly = true }, []string{"core_a", "files_a"}},
		{"one tool withheld", func(c *config.Config) { c.Tools = map[string]config.ToolConf{"files_c": {Enabled: &no}} }, []string{"core_a", "files_a", "files_b"}},
		{"off by default stays off", func(c *config.Config) { c.Toolsets.Enabled = []string{"files", "logs"} }, []string{"core_a", "files_a", "files_b", "files_c", "logs_a"}},
		{"off by default enabled", func(c *config.Config) {
			c.Toolsets.Enabled = []string{"logs"}
			c.Tools = map[string]config.ToolConf{"logs_b": {Enabled: &yes}}
		}, []string{"core_a", "logs_a", "logs_b"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, names(newServer(t, tc.mutate))); diff != "" {
				t.Errorf("served tools (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnknownToolsetOrToolIsAnError(t *testing.T) {
	cfg := config.Default(t.TempDir(), 0, func(string) string { return "" })
	cfg.Toolsets.Enabled = []string{"nope"}
	if _, err := New(Options{Config: cfg, Toolsets: sets()}); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("unknown toolset: %v", err)
	}
	cfg = config.Default(t.TempDir(), 0, func(string) string { return "" })
	cfg.Tools = map[string]config.ToolConf{"files_zz": {OutputCapBytes: 2048}}
	if _, err := New(Options{Config: cfg, Toolsets: sets()}); err == nil || !strings.Contains(err.Error(), "files_zz") {
		t.Errorf("unknown tool in [tools]: %v", err)
	}
}

// Every call is recorded, redacted, with its outcome, and counted.
func TestCallsAreAuditedAndCounted(t *testing.T) {
	s := newServer(t, nil)
	ctx := context.Background()
	for _, args := range []string{`{"content":"secret body"}`, `{"content":"fail"}`} {
		if _, err := s.Call(ctx, "files_b", json.RawMessage(args)); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := s.opts.Store.RecentCalls(ctx, store.CallQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("want 2 records, got %d", len(recs))
	}
	fail, ok := recs[0], recs[1]
	if ok.Outcome != "ok" || fail.Outcome != "error" || fail.ErrorCode != "NOT_FOUND" || ok.Tool != "files_b" || ok.BytesOut == 0 || ok.Session == "" {
		t.Errorf("records wrong: %+v %+v", ok, fail)
	}
	if strings.Contains(ok.ArgsSummary, "secret") || ok.ArgsSummary != "content=<11 bytes>" {
		t.Errorf("summary %q must give the content's size only", ok.ArgsSummary)
	}
	mfs, err := s.Metrics().Gather().Gather()
	if err != nil {
		t.Fatal(err)
	}
	var calls float64
	for _, mf := range mfs {
		if mf.GetName() == "hostmcp_tool_calls_total" {
			for _, m := range mf.GetMetric() {
				calls += m.GetCounter().GetValue()
			}
		}
	}
	if calls != 2 {
		t.Errorf("hostmcp_tool_calls_total = %v, want 2", calls)
	}
}
