package httpserve

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/admit"
)

// With the budget held by one request in flight, every other request is
// answered 429 with Retry-After before the handler sees it, except a small
// ping, which the handler gets with its body intact.
func TestBudgetRefusesBeyondItsRequests(t *testing.T) {
	g := admit.NewGate(admit.GateOptions{Name: "http", What: "HTTP requests", Settings: "[load] max_http_requests", Size: 1})
	entered, unblock := make(chan struct{}), make(chan struct{})
	var seen []string
	h := budget(g)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if string(body) == "block" {
			close(entered)
			<-unblock
		}
		seen = append(seen, string(body))
	}))
	blocked := make(chan int)
	go func() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/mcp", strings.NewReader("block")))
		blocked <- rec.Code
	}()
	<-entered

	ping := `{"jsonrpc":"2.0","id":3,"method":"ping"}`
	bigPing := `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"` + strings.Repeat("x", maxPingBytes) + `"}}`
	call := `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search_content"}}`
	chunked := httptest.NewRequest("POST", "/mcp", io.NopCloser(strings.NewReader(ping)))
	chunked.ContentLength = -1
	for _, tc := range []struct {
		name string
		req  *http.Request
		want int
	}{
		{"a tool call", httptest.NewRequest("POST", "/mcp", strings.NewReader(call)), 429},
		{"a small ping", httptest.NewRequest("POST", "/mcp", strings.NewReader(ping)), 200},
		{"a ping too big to read whole", httptest.NewRequest("POST", "/mcp", strings.NewReader(bigPing)), 429},
		{"a ping of unknown length", chunked, 429},
		{"a batch holding a ping", httptest.NewRequest("POST", "/mcp", strings.NewReader("["+ping+"]")), 429},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, tc.req)
			if rec.Code != tc.want {
				t.Fatalf("HTTP %d, want %d: %s", rec.Code, tc.want, rec.Body)
			}
			if rec.Code != 429 {
				return
			}
			if s, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || s < 1 {
				t.Errorf("Retry-After %q, want whole seconds, at least 1", rec.Header().Get("Retry-After"))
			}
			if !strings.Contains(rec.Body.String(), "[load] max_http_requests") {
				t.Errorf("429 body does not name the setting: %s", rec.Body)
			}
		})
	}
	if len(seen) != 1 || seen[0] != ping {
		t.Errorf("the handler saw %q, want only the ping, whole", seen)
	}
	if g.Refused() != 4 {
		t.Errorf("refused %d, want 4 (the ping let through is not a refusal)", g.Refused())
	}
	close(unblock)
	if code := <-blocked; code != 200 {
		t.Errorf("the request in flight: HTTP %d", code)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/mcp", strings.NewReader(call)))
	if rec.Code != 200 {
		t.Errorf("with the budget free again: HTTP %d", rec.Code)
	}
}

// The budget sits behind the token and applies to /mcp only: a request
// without the token is 401 and not counted, /healthz and /metrics answer
// whatever /mcp is doing.
func TestBudgetCoversOnlyAuthenticatedMCP(t *testing.T) {
	g := admit.NewGate(admit.GateOptions{Name: "http", Size: 1})
	hold, ok := g.TryEnter() // the budget is full
	if !ok {
		t.Fatal("a fresh gate is full")
	}
	defer hold()
	metrics := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("m 1\n")) })
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	h := Handler(srv, &Options{Token: "right-token-0123456789", MaxBodyBytes: 1 << 20, Metrics: metrics, Budget: g})
	for _, tc := range []struct {
		method, path, token string
		want                int
	}{
		{"POST", "/mcp", "", 401},
		{"POST", "/mcp", "right-token-0123456789", 429},
		{"GET", "/healthz", "", 200},
		{"GET", "/metrics", "right-token-0123456789", 200},
	} {
		req := httptest.NewRequest(tc.method, tc.path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		if tc.token != "" {
			req.Header.Set("Authorization", "Bearer "+tc.token)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tc.want {
			t.Errorf("%s %s: HTTP %d, want %d", tc.method, tc.path, rec.Code, tc.want)
		}
	}
	if g.Refused() != 1 {
		t.Errorf("refused %d, want 1: only the authenticated /mcp request", g.Refused())
	}
}
