package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// env is a test server's private state: its own state directory, root and
// optional configuration file.
type env struct {
	stateDir, root, config string
}

func newEnv(t *testing.T, configTOML string) *env {
	t.Helper()
	e := &env{stateDir: t.TempDir(), root: t.TempDir()}
	if configTOML != "" {
		e.config = filepath.Join(t.TempDir(), "hostmcp.toml")
		if err := os.WriteFile(e.config, []byte(configTOML), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

func (e *env) args(cmd string, extra ...string) []string {
	a := []string{cmd, "--state-dir", e.stateDir, "--root", e.root}
	if e.config != "" {
		a = append(a, "--config", e.config)
	}
	return append(a, extra...)
}

// connectStdio starts `hostmcp serve` and connects the go-sdk client to it.
func (e *env) connectStdio(t *testing.T, ctx context.Context) *mcp.ClientSession {
	t.Helper()
	return connectStdioArgs(t, ctx, e.args("serve"))
}

// connectStdioArgs starts the binary with args and connects over stdio.
func connectStdioArgs(t *testing.T, ctx context.Context, args []string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Stderr = &testLog{t: t}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connecting over stdio: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// testLog forwards the server's stderr to the test log, for failures.
type testLog struct{ t *testing.T }

func (l *testLog) Write(p []byte) (int, error) {
	l.t.Logf("server: %s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// envelope is the structuredContent every tool returns.
type envelope struct {
	Success       bool            `json:"success"`
	Data          json.RawMessage `json:"data"`
	Truncated     bool            `json:"truncated"`
	DataPreview   json.RawMessage `json:"data_preview"`
	PreviewCounts []struct {
		Path       string `json:"path"`
		Unit       string `json:"unit"`
		Kept       int    `json:"kept"`
		Total      int    `json:"total"`
		HandleLine int    `json:"handle_line"`
	} `json:"preview_counts"`
	Handle   string   `json:"handle"`
	Warnings []string `json:"warnings"`
	Error    *struct {
		Code         string `json:"code"`
		Message      string `json:"message"`
		Recoverable  bool   `json:"recoverable"`
		Suggestion   string `json:"suggestion"`
		RetryAfterMS int64  `json:"retry_after_ms"`
	} `json:"error"`
}

// call calls a tool as an agent does: a call refused RATE_LIMITED is sent
// again after error.retry_after_ms, so a test's many quick calls (105 to
// fill resources/list, a megabyte paged) pass on a machine fast enough to
// outrun the default rate. Only a test of the limit itself uses callOnce.
func call(t *testing.T, ctx context.Context, cs *mcp.ClientSession, tools map[string]*mcp.Tool, name string, args any) (envelope, *mcp.CallToolResult) {
	t.Helper()
	for tries := 0; ; tries++ {
		env, res := callOnce(t, ctx, cs, tools, name, args)
		if env.Error == nil || env.Error.Code != "RATE_LIMITED" || tries == maxRateRetries {
			return env, res
		}
		select {
		case <-ctx.Done():
			return env, res
		case <-time.After(time.Duration(env.Error.RetryAfterMS) * time.Millisecond):
		}
	}
}

// maxRateRetries bounds how often call sends one call again.
const maxRateRetries = 50

// callOnce calls a tool and checks the answer against the tool's
// outputSchema, as a strict client does.
func callOnce(t *testing.T, ctx context.Context, cs *mcp.ClientSession, tools map[string]*mcp.Tool, name string, args any) (envelope, *mcp.CallToolResult) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("calling %s: %v", name, err)
	}
	js, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var env envelope
	if err := json.Unmarshal(js, &env); err != nil {
		t.Fatalf("%s: structuredContent is not an envelope: %v\n%s", name, err, js)
	}
	if tl, ok := tools[name]; ok {
		validate(t, tl.OutputSchema, js)
	}
	// One text content, the envelope, then a resource_link for each handle
	// or artifact the result holds.
	if len(res.Content) == 0 {
		t.Fatalf("%s: no content", name)
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); !ok || !jsonEqual(tc.Text, string(js)) {
		t.Errorf("%s: the first content is not the envelope as text", name)
	}
	for i, c := range res.Content[1:] {
		if _, ok := c.(*mcp.ResourceLink); !ok {
			t.Errorf("%s: content %d is a %T, want only resource links after the text", name, i+1, c)
		}
	}
	if res.IsError == env.Success {
		t.Errorf("%s: isError=%v but success=%v", name, res.IsError, env.Success)
	}
	return env, res
}

func validate(t *testing.T, schema any, instance []byte) {
	t.Helper()
	sb, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(sb, &s); err != nil {
		t.Fatalf("outputSchema does not parse: %v", err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("outputSchema does not resolve: %v", err)
	}
	var v any
	_ = json.Unmarshal(instance, &v)
	if err := rs.Validate(v); err != nil {
		t.Errorf("structuredContent does not validate against outputSchema: %v\n%s", err, instance)
	}
}

func jsonEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}

func listTools(t *testing.T, ctx context.Context, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	m := map[string]*mcp.Tool{}
	for _, tl := range res.Tools {
		m[tl.Name] = tl
	}
	return m
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}
