package httpserve

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestCheckAddr(t *testing.T) {
	tests := []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:8765", "", true},
		{"[::1]:8765", "", true},
		{"localhost:8765", "", true},
		{"0.0.0.0:8765", "", false},
		{":8765", "", false},
		{"10.1.2.3:8765", "", false},
		{"10.1.2.3:8765", "a-long-enough-token", true},
		{"no-port", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.addr, func(t *testing.T) {
			err := CheckAddr(tc.addr, tc.token)
			if (err == nil) != tc.ok {
				t.Errorf("CheckAddr(%q, token=%v) = %v, want ok=%v", tc.addr, tc.token != "", err, tc.ok)
			}
		})
	}
}

func TestHandlerGuards(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	metrics := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("m 1\n")) })
	h := Handler(srv, &Options{Token: "right-token-0123456789", MaxBodyBytes: 1024, Metrics: metrics})
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	tests := []struct {
		name, method, path, body string
		header                   map[string]string
		want                     int
	}{
		{"healthz open", "GET", "/healthz", "", nil, 200},
		{"metrics needs token", "GET", "/metrics", "", nil, 401},
		{"metrics with token", "GET", "/metrics", "", map[string]string{"Authorization": "Bearer right-token-0123456789"}, 200},
		{"mcp no token", "POST", "/mcp", init, nil, 401},
		{"mcp wrong token", "POST", "/mcp", init, map[string]string{"Authorization": "Bearer wrong"}, 401},
		{"mcp basic auth", "POST", "/mcp", init, map[string]string{"Authorization": "Basic right-token-0123456789"}, 401},
		{"mcp cross-origin", "POST", "/mcp", init, map[string]string{"Authorization": "Bearer right-token-0123456789", "Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}, 403},
		{"mcp too big", "POST", "/mcp", `{"x":"` + strings.Repeat("a", 2048) + `"}`, map[string]string{"Authorization": "Bearer right-token-0123456789"}, 413},
		{"mcp ok", "POST", "/mcp", init, map[string]string{"Authorization": "Bearer right-token-0123456789"}, 200},
		{"unknown path", "GET", "/nope", "", nil, 404},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.path, strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.want {
				t.Errorf("%s %s = %d, want %d: %s", tc.method, tc.path, rec.Code, tc.want, rec.Body.String())
			}
			if rec.Code == 401 && rec.Header().Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
		})
	}
}
