package server

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// bin is what the fake planned tool empty_bin works on.
type bin struct {
	items   atomic.Int64
	emptied atomic.Int32
}

type emptyIn struct {
	DryRun bool `json:"dry_run,omitempty"`
}

type emptyOut struct {
	Removed int64      `json:"removed"`
	Plan    *tool.Plan `json:"plan,omitempty"`
}

func binSet(b *bin) tool.Toolset {
	d := tool.New(tool.Spec{Name: "empty_bin", Title: "Empty the bin", Description: "Empty the bin.", Kind: tool.Destructive,
		Facts: []tool.Fact{{Name: "items", Kind: tool.FactNumber, Doc: "items removed"}}},
		func(_ context.Context, c *tool.Call, in emptyIn) (emptyOut, error) {
			n := b.items.Load()
			p := tool.Preview{Summary: "Empty the bin of its " + strings.Repeat("o", int(n)), Facts: map[string]any{"items": n}, State: tool.StateOf(n)}
			if in.DryRun {
				plan, err := c.DryRun(p)
				return emptyOut{Plan: plan}, err
			}
			if err := c.Confirm(p); err != nil {
				return emptyOut{}, err
			}
			b.emptied.Add(1)
			b.items.Store(0)
			return emptyOut{Removed: n}, nil
		})
	return tool.Toolset{Name: "core", Description: "core", DefaultEnabled: true, Tools: []*tool.Def{d}}
}

// binServer serves empty_bin, confirmed when the bin holds more than two
// items.
func binServer(t *testing.T, b *bin, mutate func(*config.ConfirmConf)) (*Server, *store.Store) {
	t.Helper()
	cfg := config.Default(t.TempDir(), 0, func(string) string { return "" })
	cfg.Confirm.Tools = map[string][]string{"empty_bin": {"items>2"}}
	if mutate != nil {
		mutate(&cfg.Confirm)
	}
	st, err := store.Open(context.Background(), &store.Options{Path: filepath.Join(t.TempDir(), "s.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s, err := New(Options{Config: cfg, Store: st, Toolsets: []tool.Toolset{binSet(b)}})
	if err != nil {
		t.Fatal(err)
	}
	return s, st
}

// connect connects a go-sdk client at revision rev (the SDK's newest when
// empty) with the given options.
func connect(t *testing.T, s *Server, rev string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: rev})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// person answers elicitations, recording their messages.
type person struct {
	mu       sync.Mutex
	messages []string
	action   string
}

func (p *person) handler(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.messages = append(p.messages, req.Params.Message)
	return &mcp.ElicitResult{Action: p.action}, nil
}

func callBin(t *testing.T, cs *mcp.ClientSession, args map[string]any) (bool, string, json.RawMessage) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "empty_bin", Arguments: args})
	if err != nil {
		t.Fatalf("tools/call: %v", err)
	}
	var env struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
		Error   *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	js, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(js, &env); err != nil {
		t.Fatalf("no envelope: %s", js)
	}
	if env.Error != nil {
		return env.Success, env.Error.Code + ": " + env.Error.Message, env.Data
	}
	return env.Success, "", env.Data
}

func confirmations(t *testing.T, st *store.Store) []string {
	t.Helper()
	recs, err := st.RecentCalls(context.Background(), store.CallQuery{Tool: "empty_bin"})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i := len(recs) - 1; i >= 0; i-- {
		out = append(out, recs[i].Confirmation)
	}
	return out
}

// A client of a revision before 2026-07-28 is asked by elicitation/create
// while the call waits; one of 2026-07-28 gets an input-required result
// and calls again with the answer (the go-sdk client does both on its
// own). Either way a yes runs the call, a no answers DECLINED, and the
// record says which.
func TestConfirmThroughTheClient(t *testing.T) {
	for _, tc := range []struct {
		rev     string
		records []string // per call: accepted, then declined
	}{
		{"2025-11-25", []string{"confirmed", "declined"}},
		{"", []string{"asked", "confirmed", "asked", "declined"}},
	} {
		t.Run("rev "+tc.rev, func(t *testing.T) {
			b := &bin{}
			s, st := binServer(t, b, nil)
			p := &person{action: "accept"}
			cs := connect(t, s, tc.rev, &mcp.ClientOptions{ElicitationHandler: p.handler})
			b.items.Store(3)
			if ok, msg, data := callBin(t, cs, nil); !ok || b.emptied.Load() != 1 || !strings.Contains(string(data), `"removed":3`) {
				t.Fatalf("accepted: ok %v, %s, %s", ok, msg, data)
			}
			b.items.Store(4)
			p.action = "decline"
			if ok, msg, _ := callBin(t, cs, nil); ok || !strings.HasPrefix(msg, "DECLINED: ") || !strings.Contains(msg, "Empty the bin of its oooo") || b.emptied.Load() != 1 {
				t.Fatalf("declined: ok %v, %s", ok, msg)
			}
			if len(p.messages) != 2 || !strings.HasPrefix(p.messages[0], "Empty the bin of its ooo\n") || !strings.Contains(p.messages[0], `[confirm] tools.empty_bin: "items>2"`) {
				t.Errorf("messages shown: %q", p.messages)
			}
			if got := confirmations(t, st); strings.Join(got, ",") != strings.Join(tc.records, ",") {
				t.Errorf("records say %q, want %q", got, tc.records)
			}
			for _, c := range []string{"confirmed", "declined"} {
				if n := metric(t, s, "hostmcp_confirmations_total", map[string]string{"tool": "empty_bin", "confirmation": c}); n != 1 {
					t.Errorf("hostmcp_confirmations_total{confirmation=%q} = %v, want 1", c, n)
				}
			}
		})
	}
}

// A client that declared no elicitation is refused, on either revision,
// unless the operator allows such calls; a dry run is answered anyway.
func TestConfirmWithoutElicitation(t *testing.T) {
	for _, rev := range []string{"2025-11-25", ""} {
		b := &bin{}
		s, st := binServer(t, b, nil)
		cs := connect(t, s, rev, nil)
		b.items.Store(3)
		if ok, msg, _ := callBin(t, cs, nil); ok || !strings.HasPrefix(msg, "CONFIRMATION_REQUIRED: ") ||
			!strings.Contains(msg, "did not declare the elicitation capability") || b.emptied.Load() != 0 {
			t.Fatalf("rev %q: ok %v, %s", rev, ok, msg)
		}
		ok, _, data := callBin(t, cs, map[string]any{"dry_run": true})
		if !ok || !strings.Contains(string(data), `"needs_confirmation":true`) || b.emptied.Load() != 0 {
			t.Errorf("rev %q: dry run: %s", rev, data)
		}
		if got := confirmations(t, st); strings.Join(got, ",") != "refused,dry_run" {
			t.Errorf("rev %q: records say %q", rev, got)
		}

		s, _ = binServer(t, b, func(c *config.ConfirmConf) { c.WithoutClientSupport = config.ConfirmAllow })
		if ok, msg, _ := callBin(t, connect(t, s, rev, nil), nil); !ok || b.emptied.Load() != 1 {
			t.Errorf("rev %q, allowed: ok %v, %s", rev, ok, msg)
		}
	}
}

// Over stateless HTTP a request of a revision before 2026-07-28 cannot be
// asked: the server has no way to send a request of its own.
func TestConfirmOverStatelessHTTPBefore20260728(t *testing.T) {
	s, _ := binServer(t, &bin{}, nil)
	req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "empty_bin"}, Extra: &mcp.RequestExtra{Header: http.Header{"Mcp-Protocol-Version": {"2025-06-18"}}}}
	a := s.asking(req, "http:x")
	if a.Ask != nil || a.Defer || !strings.Contains(a.Unable, "over HTTP a client on protocol 2025-03-26 cannot be asked") {
		t.Errorf("asking = %+v", a)
	}
}

// What a 2026-07-28 client carries back counts only as the answer to this
// server's own question about the very same call, once, in time.
func TestQuestionsAnswers(t *testing.T) {
	q := newQuestions(time.Minute)
	now := time.Unix(1_000_000, 0)
	q.now = func() time.Time { return now }
	args := json.RawMessage(`{"path":"x","recursive":true}`)
	state := q.issue("fs_delete", args, "session:a", &tool.Question{State: "S1", Summary: "Delete x"})
	yes := mcp.InputResponseMap{confirmInput: &mcp.ElicitResult{Action: "accept"}}

	if got := q.answer("fs_delete", json.RawMessage(`{"recursive": true, "path": "x"}`), "session:a", state, yes); got == nil || got.Action != "accept" || got.State != "S1" || got.Summary != "Delete x" {
		t.Fatalf("the answer to the call's own question: %+v", got)
	}
	if got := q.answer("fs_delete", args, "session:a", state, yes); got != nil {
		t.Errorf("the same answer counted twice: %+v", got)
	}
	fresh := func() string { return q.issue("fs_delete", args, "session:a", &tool.Question{State: "S1"}) }
	body, sig, _ := strings.Cut(fresh(), ".")
	for name, tc := range map[string]struct {
		tool, client, state string
		args                json.RawMessage
		responses           mcp.InputResponseMap
		later               time.Duration
	}{
		"other arguments": {"fs_delete", "session:a", fresh(), json.RawMessage(`{"path":"y","recursive":true}`), yes, 0},
		"other tool":      {"fs_move", "session:a", fresh(), args, yes, 0},
		"other client":    {"fs_delete", "session:b", fresh(), args, yes, 0},
		"forged state":    {"fs_delete", "session:a", body + "x." + sig, args, yes, 0},
		"no signature":    {"fs_delete", "session:a", body, args, yes, 0},
		"no answer":       {"fs_delete", "session:a", fresh(), args, mcp.InputResponseMap{}, 0},
		"expired":         {"fs_delete", "session:a", fresh(), args, yes, time.Minute},
	} {
		now = time.Unix(1_000_000, 0).Add(tc.later)
		if got := q.answer(tc.tool, tc.args, tc.client, tc.state, tc.responses); got != nil {
			t.Errorf("%s: counted as %+v", name, got)
		}
	}
}
