package server

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// A call's provenance (tool, version, time, duration, host) reaches the
// client in the result's _meta, on every protocol revision, and neither in
// structuredContent nor in the text the model reads, on success or failure.
func TestProvenanceInMeta(t *testing.T) {
	s := newServer(t, nil)
	for _, rev := range []string{rev20241105, rev20250618, ""} {
		cs := connect(t, s, rev, nil)
		for _, content := range []string{"abc", "fail"} {
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "files_b", Arguments: map[string]any{"content": content}})
			if err != nil {
				t.Fatalf("%s %s: %v", rev, content, err)
			}
			if res.IsError != (content == "fail") {
				t.Errorf("%s %s: isError %v", rev, content, res.IsError)
			}
			js, err := json.Marshal(res.Meta[tool.ProvenanceKey])
			if err != nil {
				t.Fatal(err)
			}
			var p tool.Provenance
			if err := json.Unmarshal(js, &p); err != nil || p.Tool != "files_b" || p.Timestamp == "" || p.Host == "" {
				t.Errorf("%s %s: _meta[%q] = %s (%v)", rev, content, tool.ProvenanceKey, js, err)
			}
			answers := []string{res.Content[0].(*mcp.TextContent).Text}
			if res.StructuredContent != nil {
				sc, _ := json.Marshal(res.StructuredContent)
				answers = append(answers, string(sc))
			} else if rev != rev20241105 {
				t.Errorf("%s %s: no structuredContent", rev, content)
			}
			for _, a := range answers {
				var members map[string]json.RawMessage
				if err := json.Unmarshal([]byte(a), &members); err != nil {
					t.Fatalf("%s %s: %v: %s", rev, content, err, a)
				}
				for _, k := range []string{"tool", "tool_version", "timestamp", "duration_ms", "host"} {
					if _, ok := members[k]; ok {
						t.Errorf("%s %s: the answer the model reads carries %q: %s", rev, content, k, a)
					}
				}
			}
		}
	}
}
