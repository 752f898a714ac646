package server

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// composeOut is what the outer tool answers: what the tool it called gave,
// and whether its Caller knew the served tools.
type composeOut struct {
	Inner        json.RawMessage `json:"inner"`
	ServesInner  bool            `json:"serves_inner"`
	ServesHidden bool            `json:"serves_hidden"`
}

// composeSets are a toolset whose first tool calls its second through the
// call's own Caller, and a toolset that is not served.
func composeSets() []tool.Toolset {
	core := fakeSet("core", true, tool.ReadOnly)
	core.Tools = append(core.Tools, tool.New(tool.Spec{Name: "core_outer", Title: "outer", Description: "calls core_a", Kind: tool.ReadOnly},
		func(ctx context.Context, call *tool.Call, _ noIn) (composeOut, error) {
			res, err := call.Tools().Call(ctx, "core_a", json.RawMessage(`{"content":"four"}`))
			if err != nil {
				return composeOut{}, tool.Wrap(tool.Internal, err, "calling core_a: %v", err)
			}
			s, ok := call.Tools().(interface{ Serves(string) bool })
			return composeOut{Inner: res.Envelope.Data, ServesInner: ok && s.Serves("core_a"), ServesHidden: ok && s.Serves("hidden_a")}, nil
		}))
	return []tool.Toolset{core, fakeSet("hidden", false, tool.ReadOnly)}
}

// A tool calls another through its Call, with no dispatcher set after the
// server is built: the inner call takes the path of every call and is
// recorded beside the outer one.
func TestToolCallsAnotherThroughItsCall(t *testing.T) {
	cfg := config.Default(t.TempDir(), 0, func(string) string { return "" })
	cfg.Confirm.Tools = nil
	st, err := store.Open(context.Background(), &store.Options{Path: filepath.Join(t.TempDir(), "s.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s, err := New(Options{Config: cfg, Store: st, Toolsets: composeSets()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := s.Call(ctx, "core_outer", json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if res.Err != nil {
		t.Fatalf("core_outer failed: %+v", res.Err)
	}
	var out composeOut
	if err := json.Unmarshal(res.Envelope.Data, &out); err != nil {
		t.Fatal(err)
	}
	if string(out.Inner) != `{"n":4}` || !out.ServesInner || out.ServesHidden {
		t.Errorf("core_outer answered %+v (inner %s), want core_a's {\"n\":4}, core_a served, hidden_a not", out, out.Inner)
	}
	recs, err := s.opts.Store.RecentCalls(ctx, store.CallQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var tools []string
	for _, r := range recs {
		tools = append(tools, r.Tool)
	}
	slices.Sort(tools)
	if !slices.Equal(tools, []string{"core_a", "core_outer"}) {
		t.Errorf("recorded calls %v, want core_a and core_outer", tools)
	}
}

// Outside a server (a bare Runner, as toolsets' tests run tools), a call's
// Caller refuses rather than panics, and serves nothing.
func TestCallOutsideAServerHasNoTools(t *testing.T) {
	res := (&tool.Runner{}).Run(context.Background(), tool.Invocation{Def: composeSets()[0].Tools[1], Args: json.RawMessage(`{}`)})
	if res.Err == nil || res.Err.Code != tool.Internal {
		t.Errorf("core_outer outside a server: %+v, want an INTERNAL error from its Caller", res.Err)
	}
}
