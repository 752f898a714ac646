package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// After notifications/cancelled for a call in flight, the server stops the
// call and sends no response for it, as the protocol asks; the requests
// after it are answered.
func TestStdioCancelledCallGetsNoResponse(t *testing.T) {
	s := startRaw(t, newEnv(t, ""))
	s.send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"perf_use_check","arguments":{"interval_ms":10000},"_meta":{"progressToken":"p7"}}}`)
	for r := s.next(); r.Method != "notifications/progress"; r = s.next() { // the call is running
		if string(r.ID) == "7" {
			t.Fatalf("the call answered before it was cancelled: %s", r.line)
		}
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"the user gave up"}}`)

	// The call's record is written as it ends, just before a response would
	// be: once it is there, any response for 7 is already on its way.
	var rec recentView
	for id := 100; len(rec.Calls) == 0; id++ {
		if id > 100 {
			time.Sleep(100 * time.Millisecond)
		}
		s.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"mcp_recent_calls","arguments":{"tool":"perf_use_check"}}}`, id))
		rec = recentCalls(t, s.answer(id, "7"))
	}
	if c := rec.Calls[0]; c.Outcome != "error" || c.ErrorCode != "CANCELLED" {
		t.Errorf("the cancelled call was recorded %s %s, want error CANCELLED: it ran to its end", c.Outcome, c.ErrorCode)
	}
	s.send(`{"jsonrpc":"2.0","id":200,"method":"ping"}`)
	s.answer(200, "7")
	s.send(`{"jsonrpc":"2.0","id":201,"method":"tools/list"}`)
	s.answer(201, "7")
}

// answer reads the server's lines up to the response to request id,
// failing on a response to the request whose id is never: a notification
// or another response on the way is skipped.
func (s *rawStdio) answer(id int, never string) rawReply {
	s.t.Helper()
	for {
		r := s.next()
		switch string(r.ID) {
		case never:
			s.t.Fatalf("a response to request %s, which was cancelled: %.300s", never, r.line)
		case fmt.Sprint(id):
			if r.Result == nil {
				s.t.Fatalf("request %d failed: %s", id, r.line)
			}
			return r
		}
	}
}

// recentCalls decodes a raw mcp_recent_calls result.
func recentCalls(t *testing.T, r rawReply) recentView {
	t.Helper()
	var res struct {
		StructuredContent envelope `json:"structuredContent"`
	}
	var v recentView
	if err := json.Unmarshal(r.Result, &res); err != nil || !res.StructuredContent.Success {
		t.Fatalf("mcp_recent_calls: %v %s", err, r.line)
	}
	if err := json.Unmarshal(res.StructuredContent.Data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// Over HTTP at 2026-07-28 closing the response stream is the cancellation
// (no notifications/cancelled is sent or expected): the server stops the
// call, which its record shows.
func TestHTTPClosedStreamCancelsTheCall(t *testing.T) {
	ctx := testCtx(t)
	s := newEnv(t, "").startHTTP(t, testToken, "127.0.0.1:0")
	connect := func(opts *mcp.ClientOptions) *mcp.ClientSession {
		client := mcp.NewClient(&mcp.Implementation{Name: "e2e-cancel", Version: "1"}, opts)
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
			Endpoint:   s.base + "/mcp",
			HTTPClient: &http.Client{Transport: bearerTransport{testToken}},
		}, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	callCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	cs := connect(&mcp.ClientOptions{ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
		cancel() // the call is running: give up on it
	}})
	params := &mcp.CallToolParams{Name: "perf_use_check", Arguments: map[string]any{"interval_ms": 10000}}
	params.SetProgressToken("slow")
	if _, err := cs.CallTool(callCtx, params); err == nil {
		t.Fatal("the cancelled call answered")
	}

	other := connect(nil)
	tools := listTools(t, ctx, other)
	var rec recentView
	for len(rec.Calls) == 0 { // written as the call ends, cancelled or not
		time.Sleep(100 * time.Millisecond)
		mustEnvelope(t, ctx, other, tools, "mcp_recent_calls", map[string]any{"tool": "perf_use_check"}, &rec)
	}
	if c := rec.Calls[0]; c.Outcome != "error" || c.ErrorCode != "CANCELLED" {
		t.Errorf("the call was recorded %s %s, want error CANCELLED: it ran on after its stream closed", c.Outcome, c.ErrorCode)
	}
}
