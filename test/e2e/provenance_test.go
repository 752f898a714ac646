package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// provenanceKey is the result _meta key of a call's provenance, as the wire
// carries it.
const provenanceKey = "io.hostmcp/call"

// provenanceFields are the members of a call's provenance: in _meta, never
// in what the model reads.
var provenanceFields = []string{"tool", "tool_version", "timestamp", "duration_ms", "host"}

// A tool's answer, success or failure, over stdio and HTTP, carries the
// call's provenance (tool, version, start, duration, host) in the result's
// _meta and not in structuredContent or the text content, which hold what
// the model acts on.
func TestProvenanceInMeta(t *testing.T) {
	e := newEnv(t, "")
	if err := os.WriteFile(filepath.Join(e.root, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := e.startHTTP(t, testToken, "127.0.0.1:0")
	connects := map[string]func(context.Context) *mcp.ClientSession{
		"stdio": func(ctx context.Context) *mcp.ClientSession { return e.connectStdio(t, ctx) },
		"http": func(ctx context.Context) *mcp.ClientSession {
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx,
				&mcp.StreamableClientTransport{Endpoint: s.base + "/mcp", HTTPClient: &http.Client{Transport: bearerTransport{testToken}}}, nil)
			if err != nil {
				t.Fatalf("connecting over HTTP: %v", err)
			}
			t.Cleanup(func() { cs.Close() })
			return cs
		},
	}
	for transport, connect := range connects {
		t.Run(transport, func(t *testing.T) {
			ctx := testCtx(t)
			cs := connect(ctx)
			tools := listTools(t, ctx, cs)
			for _, tc := range []struct {
				path string
				ok   bool
			}{{"a.txt", true}, {"missing.txt", false}} {
				before := time.Now().UTC()
				env, res := call(t, ctx, cs, tools, "fs_read", map[string]any{"path": tc.path})
				if env.Success != tc.ok {
					t.Fatalf("fs_read %s: success %v, want %v: %+v", tc.path, env.Success, tc.ok, env.Error)
				}
				sc, err := json.Marshal(res.StructuredContent)
				if err != nil {
					t.Fatal(err)
				}
				meta, err := json.Marshal(res.Meta[provenanceKey])
				if err != nil {
					t.Fatal(err)
				}
				p := checkProvenance(t, meta, "fs_read", string(sc))
				if start, err := time.Parse(time.RFC3339Nano, p.Timestamp); err != nil || start.Before(before.Add(-time.Second)) {
					t.Errorf("fs_read %s: timestamp %q is not when the call started (after %s): %v", tc.path, p.Timestamp, before, err)
				}
			}
		})
	}
}

// provenance is the _meta member of a call's provenance.
type provenance struct {
	Tool        string `json:"tool"`
	ToolVersion string `json:"tool_version"`
	Timestamp   string `json:"timestamp"`
	DurationMS  *int64 `json:"duration_ms"`
	Host        string `json:"host"`
}

// checkProvenance checks that meta is the provenance of a call of tool and
// that answer, the envelope the model reads, holds none of it.
func checkProvenance(t *testing.T, meta json.RawMessage, tool, answer string) provenance {
	t.Helper()
	var p provenance
	if err := json.Unmarshal(meta, &p); err != nil || p.Tool != tool || p.ToolVersion == "" || p.Timestamp == "" || p.DurationMS == nil || *p.DurationMS < 0 || p.Host == "" {
		t.Errorf("_meta[%q] = %s, want the provenance of a %s call (%v)", provenanceKey, meta, tool, err)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal([]byte(answer), &members); err != nil {
		t.Fatalf("the answer is not a JSON object: %v: %.300s", err, answer)
	}
	for _, k := range provenanceFields {
		if _, ok := members[k]; ok {
			t.Errorf("the answer the model reads carries %q, which belongs in _meta: %.300s", k, answer)
		}
	}
	return p
}
