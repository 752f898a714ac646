package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	dto "github.com/prometheus/client_model/go"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/store"
)

// metric is the value of one series of the server's registry, 0 when it
// is absent.
func metric(t *testing.T, s *Server, name string, labels map[string]string) float64 {
	t.Helper()
	mfs, err := s.Metrics().Gather().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			if hasLabels(m, labels) {
				if c := m.GetCounter(); c != nil {
					return c.GetValue()
				}
				return m.GetGauge().GetValue()
			}
		}
	}
	return 0
}

func hasLabels(m *dto.Metric, want map[string]string) bool {
	n := 0
	for _, l := range m.GetLabel() {
		if v, ok := want[l.GetName()]; ok && v == l.GetValue() {
			n++
		}
	}
	return n == len(want)
}

// A refused call is answered, recorded in the audit with its code and
// counted by reason in the metrics, which also show the limits in force.
func TestRefusedCallsAreAuditedAndCounted(t *testing.T) {
	s := newServer(t, func(c *config.Config) { c.Load.CallsPerSecond, c.Load.Burst = 0.01, 2 })
	ctx := context.Background()
	var codes []string
	for range 3 {
		res, err := s.Call(ctx, "files_a", json.RawMessage(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		code := ""
		if res.Err != nil {
			code = string(res.Err.Code)
		}
		codes = append(codes, code)
	}
	if strings.Join(codes, ",") != ",,RATE_LIMITED" {
		t.Fatalf("codes %v, want two answers and RATE_LIMITED", codes)
	}
	recs, err := s.opts.Store.RecentCalls(ctx, store.CallQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || recs[0].ErrorCode != "RATE_LIMITED" || recs[0].Outcome != "error" || recs[0].Tool != "files_a" {
		t.Errorf("the refusal is not in the audit: %+v", recs)
	}
	for _, tc := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"hostmcp_load_refused_total", map[string]string{"reason": "RATE_LIMITED", "limit": "rate"}, 1},
		{"hostmcp_load_refused_total", map[string]string{"reason": "BUSY", "limit": "programs"}, 0},
		{"hostmcp_tool_calls_total", map[string]string{"tool": "files_a", "code": "RATE_LIMITED"}, 1},
		{"hostmcp_load_rate_burst", nil, 2},
		{"hostmcp_load_rate_per_second", nil, 0.01},
		{"hostmcp_load_slots", map[string]string{"limit": "programs"}, float64(config.DefaultLoad().MaxProgramCalls)},
		{"hostmcp_load_slots", map[string]string{"limit": "http"}, float64(config.DefaultLoad().MaxHTTPRequests)},
		{"hostmcp_load_queue_slots", map[string]string{"limit": "calls"}, float64(config.DefaultLoad().QueuedCalls)},
		{"hostmcp_load_in_flight", map[string]string{"limit": "calls"}, 0},
	} {
		if got := metric(t, s, tc.name, tc.labels); got != tc.want {
			t.Errorf("%s%v = %v, want %v", tc.name, tc.labels, got, tc.want)
		}
	}
}

func TestClientID(t *testing.T) {
	header := func(auth string) *mcp.CallToolRequest {
		h := http.Header{}
		if auth != "" {
			h.Set("Authorization", auth)
		}
		return &mcp.CallToolRequest{Extra: &mcp.RequestExtra{Header: h}}
	}
	a, a2, b := clientID(header("Bearer token-a"), "x"), clientID(header("Bearer token-a"), "y"), clientID(header("Bearer token-b"), "x")
	if a != a2 || a == b || !strings.HasPrefix(a, "http:") || strings.Contains(a, "token-a") {
		t.Errorf("HTTP identities: %q %q %q; want one per token, a digest only", a, a2, b)
	}
	if none := clientID(header(""), "x"); none == a || !strings.HasPrefix(none, "http:") {
		t.Errorf("no token: %q", none)
	}
	if got := clientID(&mcp.CallToolRequest{}, "local-7"); got != "session:local-7" {
		t.Errorf("stdio: %q, want the session", got)
	}
}
