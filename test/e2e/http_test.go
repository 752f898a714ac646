package e2e

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const testToken = "e2e-token-0123456789abcdef"

// httpServer is a `hostmcp serve --http` started by a test.
type httpServer struct {
	cmd  *exec.Cmd
	base string
	done chan error

	mu     sync.Mutex
	stderr []string // the server's log lines so far
}

// logLines are the lines the server has written on stderr so far.
func (s *httpServer) logLines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.stderr...)
}

var listenLine = regexp.MustCompile(`serving MCP over HTTP.*addr=(\S+)`)

func (e *env) startHTTP(t *testing.T, token string, addr string) *httpServer {
	t.Helper()
	return startHTTPCmd(t, token, exec.Command(binary, e.args("serve", "--http", addr)...))
}

// startHTTPCmd starts cmd, a `hostmcp serve --http` however it is wrapped,
// with the token, and waits for it to listen.
func startHTTPCmd(t *testing.T, token string, cmd *exec.Cmd) *httpServer {
	t.Helper()
	cmd.Env = append(os.Environ(), "HOSTMCP_TOKEN="+token)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &httpServer{cmd: cmd, done: make(chan error, 1)}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGKILL) // only the process this test started
		<-s.done
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			t.Logf("server: %s", sc.Text())
			s.mu.Lock()
			s.stderr = append(s.stderr, sc.Text())
			s.mu.Unlock()
			if m := listenLine.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
		s.done <- cmd.Wait()
	}()
	select {
	case a := <-found:
		s.base = "http://" + a
	case err := <-s.done:
		s.done <- err
		t.Fatalf("server exited before listening: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("server did not start listening")
	}
	return s
}

// bearerTransport adds the Authorization header to every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func TestHTTPTransport(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	s := newEnv(t, "").startHTTP(t, testToken, "127.0.0.1:0")

	if code, _ := get(t, s.base+"/healthz", ""); code != 200 {
		t.Errorf("/healthz = %d, want 200 without a token", code)
	}
	initBody := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`
	for _, tc := range []struct {
		name   string
		header map[string]string
		want   int
	}{
		{"no token", nil, 401},
		{"wrong token", map[string]string{"Authorization": "Bearer wrong-token-0123456789"}, 401},
		{"cross-origin with good token", map[string]string{"Authorization": "Bearer " + testToken, "Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}, 403},
		{"good token", map[string]string{"Authorization": "Bearer " + testToken}, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := post(t, s.base+"/mcp", initBody, tc.header); got != tc.want {
				t.Errorf("POST /mcp = %d, want %d", got, tc.want)
			}
		})
	}
	t.Run("body over the limit", func(t *testing.T) {
		big := `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"` + strings.Repeat("a", 5<<20) + `"}}`
		if got := post(t, s.base+"/mcp", big, map[string]string{"Authorization": "Bearer " + testToken}); got != 413 {
			t.Errorf("oversized body = %d, want 413", got)
		}
	})

	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-http", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   s.base + "/mcp",
		HTTPClient: &http.Client{Transport: bearerTransport{testToken}},
	}, nil)
	if err != nil {
		t.Fatalf("connecting over HTTP: %v", err)
	}
	defer cs.Close()
	tools := listTools(t, ctx, cs)
	for name, tl := range tools {
		checkAnnotations(t, name, tl)
	}
	for _, name := range []string{"sys_snapshot", "perf_info"} {
		if env, _ := call(t, ctx, cs, tools, name, map[string]any{}); !env.Success {
			t.Errorf("%s over HTTP failed: %+v", name, env.Error)
		}
	}

	if code, _ := get(t, s.base+"/metrics", ""); code != 401 {
		t.Errorf("/metrics without a token = %d, want 401", code)
	}
	code, body := get(t, s.base+"/metrics", testToken)
	if code != 200 || !strings.Contains(body, `hostmcp_tool_calls_total{code="",outcome="ok",tool="sys_snapshot"}`) ||
		!strings.Contains(body, "hostmcp_tool_call_duration_seconds_bucket") {
		t.Errorf("/metrics = %d without the call counters:\n%.2000s", code, body)
	}

	// Graceful shutdown on SIGTERM: the process exits 0.
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.done:
		s.done <- err
		if err != nil {
			t.Errorf("server exit after SIGTERM: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Error("server did not stop on SIGTERM")
	}
}

func TestHTTPRefusesNonLoopbackWithoutToken(t *testing.T) {
	e := newEnv(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, e.args("serve", "--http", "0.0.0.0:0")...)
	cmd.Env = append(os.Environ(), "HOSTMCP_TOKEN=")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("serve on 0.0.0.0 without a token started:\n%s", out)
	}
	if !strings.Contains(string(out), "without a token") {
		t.Errorf("refusal does not say why:\n%s", out)
	}
}

func get(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func post(t *testing.T, url, body string, header map[string]string) int {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}
