package httpserve

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const cancelToken = "right-token-0123456789"

// blockingServer serves one tool, "wait", which blocks until its context
// ends and then reports why on ended.
func blockingServer(t *testing.T) (*httptest.Server, <-chan error, <-chan struct{}) {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	started, ended := make(chan struct{}, 8), make(chan error, 8)
	srv.AddTool(&mcp.Tool{Name: "wait", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			started <- struct{}{}
			select {
			case <-ctx.Done():
				ended <- context.Cause(ctx)
			case <-time.After(10 * time.Second):
				ended <- nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
		})
	hs := httptest.NewServer(Handler(srv, &Options{Token: cancelToken, MaxBodyBytes: 1 << 20}))
	t.Cleanup(hs.Close)
	return hs, ended, started
}

// send POSTs body with the token and extra headers, and returns the status.
func send(t *testing.T, ctx context.Context, url, body string, header map[string]string) (int, string, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, "POST", url+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+cancelToken)
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), nil
}

func callBody(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"wait","arguments":{}}}`
}

func cancelBody(id string) string {
	return `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `}}`
}

// waitStarted waits for the tool to be running.
func waitStarted(t *testing.T, started <-chan struct{}) {
	t.Helper()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the call never started")
	}
}

// expectEnded checks whether the call's context ended within a second.
func expectEnded(t *testing.T, ended <-chan error, want bool) {
	t.Helper()
	select {
	case err := <-ended:
		if !want {
			t.Fatalf("the call ended (%v), want it running", err)
		}
		if err == nil {
			t.Fatal("the call ran to its end")
		}
	case <-time.After(time.Second):
		if want {
			t.Fatal("the call was still running a second later")
		}
	}
}

// A notifications/cancelled on a POST of its own ends the call it names;
// one from another client (another Mcp-Session-Id) or for another id (the
// string "7" for the number 7, or 7.5, which is no id at all) does not.
func TestCancelNotificationEndsTheCall(t *testing.T) {
	for _, tc := range []struct {
		name, callID string
		callHeader   map[string]string
	}{
		{"number id", "7", nil},
		{"string id", `"seven"`, nil},
		{"with a session id", "7", map[string]string{"Mcp-Session-Id": "mine"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs, ended, started := blockingServer(t)
			answered := make(chan string, 1)
			go func() {
				_, body, err := send(t, context.Background(), hs.URL, callBody(tc.callID), tc.callHeader)
				answered <- fmt.Sprint(body, err)
			}()
			waitStarted(t, started)
			for _, other := range []struct {
				id     string
				header map[string]string
			}{
				{tc.callID, map[string]string{"Mcp-Session-Id": "someone-else"}},
				{`"7"`, tc.callHeader},
				{"8", tc.callHeader},
				{"7.5", tc.callHeader},
			} {
				if other.id == tc.callID && other.header["Mcp-Session-Id"] == tc.callHeader["Mcp-Session-Id"] {
					continue
				}
				if code, body, err := send(t, context.Background(), hs.URL, cancelBody(other.id), other.header); err != nil || code != http.StatusAccepted {
					t.Fatalf("cancel %s: %d %s %v", other.id, code, body, err)
				}
			}
			expectEnded(t, ended, false)
			if code, body, err := send(t, context.Background(), hs.URL, cancelBody(tc.callID), tc.callHeader); err != nil || code != http.StatusAccepted {
				t.Fatalf("cancel: %d %s %v", code, body, err)
			}
			expectEnded(t, ended, true)
			select {
			case <-answered:
			case <-time.After(5 * time.Second):
				t.Fatal("the cancelled call's POST never ended")
			}
		})
	}
}

// A client that hangs up mid-call ends the call.
func TestDisconnectEndsTheCall(t *testing.T) {
	hs, ended, started := blockingServer(t)
	ctx, hangUp := context.WithCancel(context.Background())
	defer hangUp()
	go func() { _, _, _ = send(t, ctx, hs.URL, callBody("1"), nil) }()
	waitStarted(t, started)
	hangUp()
	expectEnded(t, ended, true)
}

// A body over the limit still gets the SDK's 413, and one that is not
// JSON-RPC its 400: looking into bodies changes no answer.
func TestCancelTrackingLeavesBadBodiesToTheSDK(t *testing.T) {
	hs, _, _ := blockingServer(t)
	for _, tc := range []struct {
		body string
		want int
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"` + strings.Repeat("a", 2<<20) + `"}}`, http.StatusRequestEntityTooLarge},
		{`{"jsonrpc":"2.0","id":1,"method":"ping"`, http.StatusBadRequest},
		{`[` + callBody("1") + `]`, http.StatusBadRequest}, // batches are refused from 2025-06-18 on
	} {
		if code, body, err := send(t, context.Background(), hs.URL, tc.body, nil); err != nil || code != tc.want {
			t.Errorf("%.60s: %d %s %v, want %d", tc.body, code, body, err, tc.want)
		}
	}
}
