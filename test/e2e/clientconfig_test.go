package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// clientConfig runs `hostmcp client-config ARGS` and returns its stdout.
func clientConfig(t *testing.T, args ...string) string {
	t.Helper()
	out, code := runCLI(t, append([]string{"client-config"}, args...)...)
	if code != 0 {
		t.Fatalf("client-config %v: exit %d", args, code)
	}
	return out
}

// The stdio snippets, as a client reads them, start a server that answers:
// the client's JSON is decoded and its command and args run by the go-sdk
// client, as the client would.
func TestClientConfigStdioSnippetsServe(t *testing.T) {
	e := newEnv(t, "")
	for _, tc := range []struct{ client, wrapper string }{
		{"vscode", "servers"}, {"cursor", "mcpServers"}, {"claude-desktop", "mcpServers"},
	} {
		t.Run(tc.client, func(t *testing.T) {
			out := clientConfig(t, tc.client, "--root", e.root+":ro", "--state-dir", e.stateDir)
			var doc map[string]map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			srv := doc[tc.wrapper]["hostmcp"]
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cs := connectCommand(t, ctx, exec.Command(srv.Command, srv.Args...))
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fs_write", Arguments: map[string]any{"path": "x.txt", "content": "x"}})
			if err != nil {
				t.Fatal(err)
			}
			if !res.IsError || !strings.Contains(contentText(res), "READ_ONLY") {
				t.Errorf("the snippet's :ro root was not served read-only: %s", contentText(res))
			}
		})
	}
}

// The HTTP snippets reach a running server once the client puts the token
// from its environment where the snippet refers to it; the token itself is
// in no snippet.
func TestClientConfigHTTPSnippetsServe(t *testing.T) {
	e := newEnv(t, "")
	s := e.startHTTP(t, testToken, "127.0.0.1:0")
	url := s.base + "/mcp"
	t.Setenv("HOSTMCP_TOKEN", testToken) // what the client's environment holds
	for _, tc := range []struct{ client, wrapper, ref string }{
		{"vscode", "servers", "${env:HOSTMCP_TOKEN}"}, {"cursor", "mcpServers", "${env:HOSTMCP_TOKEN}"},
	} {
		t.Run(tc.client, func(t *testing.T) {
			out := clientConfig(t, tc.client, "--http", url)
			if strings.Contains(out, testToken) {
				t.Fatalf("the token is inline:\n%s", out)
			}
			var doc map[string]map[string]struct {
				URL     string            `json:"url"`
				Headers map[string]string `json:"headers"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			srv := doc[tc.wrapper]["hostmcp"]
			auth := strings.ReplaceAll(srv.Headers["Authorization"], tc.ref, os.Getenv("HOSTMCP_TOKEN"))
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: &http.Client{Transport: headerTransport{"Authorization", auth}}}, nil)
			if err != nil {
				t.Fatalf("connecting with the snippet: %v", err)
			}
			defer cs.Close()
			if _, err := cs.ListTools(ctx, nil); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// headerTransport sets one header on every request.
type headerTransport struct{ name, value string }

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.name, h.value)
	return http.DefaultTransport.RoundTrip(r)
}

// connectCommand connects the go-sdk client to a server command.
func connectCommand(t *testing.T, ctx context.Context, cmd *exec.Cmd) *mcp.ClientSession {
	t.Helper()
	cmd.Stderr = &testLog{t: t}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connecting over stdio: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func contentText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
