package e2e

import (
	"bytes"
	"context"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// lockedBuffer collects a server's stderr while the client runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// stdioSession runs one session over stdio (tools/list and a call) and
// returns what the server wrote on stderr.
func stdioSession(t *testing.T, args []string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var stderr lockedBuffer
	cmd := exec.Command(binary, args...)
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connecting over stdio: %v", err)
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "sys_snapshot", Arguments: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	cs.Close()
	return stderr.String()
}

// On stdio the server says nothing on stderr unless something is wrong:
// clients such as Claude Code show every stderr line as an error. Asked
// for info, it says it is serving.
func TestStdioQuietByDefault(t *testing.T) {
	e := newEnv(t, "")
	if got := stdioSession(t, e.args("serve")); got != "" {
		t.Errorf("stderr of a healthy stdio session, want nothing:\n%s", got)
	}
	if got := stdioSession(t, e.args("serve", "--log-level", "info")); !strings.Contains(got, "serving MCP on stdio") {
		t.Errorf("--log-level info: stderr lacks the start line:\n%s", got)
	}
}

// Over HTTP every request gets one log line with its MCP method, tool and
// status, and none holds the token or the call's arguments.
func TestHTTPAccessLog(t *testing.T) {
	e := newEnv(t, "")
	s := e.startHTTP(t, testToken, "127.0.0.1:0")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.base + "/mcp", HTTPClient: &http.Client{Transport: bearerTransport{testToken}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	const marker = "argument-marker-4711"
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fs_list", Arguments: map[string]any{"path": marker}}); err != nil {
		t.Fatal(err)
	}
	if code, _ := get(t, s.base+"/metrics", ""); code != http.StatusUnauthorized {
		t.Fatalf("/metrics without the token: %d", code)
	}
	var call, refused string
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) && (call == "" || refused == "") {
		for _, l := range s.logLines() {
			if strings.Contains(l, `msg="http request"`) && strings.Contains(l, "tool=fs_list") {
				call = l
			}
			if strings.Contains(l, "path=/metrics") && strings.Contains(l, "status=401") {
				refused = l
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if call == "" || refused == "" {
		t.Fatalf("no access log line for the call or the refused /metrics:\n%s", strings.Join(s.logLines(), "\n"))
	}
	for _, want := range []string{"method=POST", "mcp_method=tools/call", "status=200", "duration_ms="} {
		if !strings.Contains(call, want) {
			t.Errorf("the call's line lacks %s: %s", want, call)
		}
	}
	all := strings.Join(s.logLines(), "\n")
	for _, leak := range []string{marker, testToken} {
		if strings.Contains(all, leak) {
			t.Errorf("the log holds %q:\n%s", leak, all)
		}
	}
}
