package httpserve

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// syncBuffer is a log sink the handler's goroutines may share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Each HTTP request gets one line at info: method, path, the MCP method
// and tool, status and duration; never the arguments or the token.
// /healthz, polled by supervisors, logs at debug only.
func TestAccessLog(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	type echoIn struct {
		Text string `json:"text"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
	})
	const token = "right-token-0123456789"
	var sink syncBuffer
	log := slog.New(slog.NewTextHandler(&sink, &slog.HandlerOptions{Level: slog.LevelInfo}))
	h := Handler(srv, &Options{Token: token, MaxBodyBytes: 1 << 20, Logger: log})
	post := func(body, auth string) int {
		req := httptest.NewRequest("POST", "/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		if auth != "" {
			req.Header.Set("Authorization", "Bearer "+auth)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	const secret = "s3cret-argument-value"
	if code := post(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"`+secret+`"}}}`, token); code != 200 {
		t.Fatalf("tools/call: %d", code)
	}
	if code := post(`{"jsonrpc":"2.0","id":8,"method":"ping"}`, "wrong-token-0123456789"); code != 401 {
		t.Fatalf("wrong token: %d", code)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/healthz", nil))

	lines := strings.Split(strings.TrimSpace(sink.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 lines (the call, the 401), got:\n%s", sink.String())
	}
	for _, want := range []string{"level=INFO", `msg="http request"`, "method=POST", "path=/mcp", "mcp_method=tools/call", "tool=echo", "status=200", "duration_ms="} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("call line lacks %s: %s", want, lines[0])
		}
	}
	for _, want := range []string{"status=401", "path=/mcp"} {
		if !strings.Contains(lines[1], want) {
			t.Errorf("401 line lacks %s: %s", want, lines[1])
		}
	}
	for _, leak := range []string{secret, token, "wrong-token", "Bearer"} {
		if strings.Contains(sink.String(), leak) {
			t.Errorf("the log holds %q:\n%s", leak, sink.String())
		}
	}
}

// A tool name is the client's text: it is clipped and quoted, so one
// request cannot write a forged line or a megabyte into the log.
func TestAccessLogClipsToolName(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	var sink syncBuffer
	log := slog.New(slog.NewTextHandler(&sink, nil))
	h := Handler(srv, &Options{MaxBodyBytes: 1 << 20, Logger: log})
	name := "x\nlevel=ERROR msg=forged " + strings.Repeat("y", 5000)
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + strings.ReplaceAll(name, "\n", `\n`) + `"}}`
	req := httptest.NewRequest("POST", "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	h.ServeHTTP(httptest.NewRecorder(), req)
	out := sink.String()
	if strings.Count(out, "\n") != 1 || len(out) > 1024 || !strings.Contains(out, "(5025 bytes)") {
		t.Errorf("want one clipped line, got %d bytes:\n%.600s", len(out), out)
	}
}
