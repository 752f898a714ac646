package server

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

var allRevisions = []string{rev20241105, rev20250326, rev20250618, rev20251125}

func TestNegotiated(t *testing.T) {
	for asked, want := range map[string]string{
		rev20241105:  rev20241105,
		rev20250326:  rev20250326,
		rev20250618:  rev20250618,
		rev20251125:  rev20251125,
		rev20260728:  rev20251125, // not served through initialize
		"2024-10-07": rev20251125, // a draft the SDK does not serve
		"":           rev20251125,
	} {
		if got := negotiated(asked); got != want {
			t.Errorf("negotiated(%q) = %q, want %q", asked, got, want)
		}
	}
}

func TestRevisionOfARequestWithoutSession(t *testing.T) {
	newest := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Meta: mcp.Meta{mcp.MetaKeyProtocolVersion: rev20260728}}}
	if got := revisionOf(newest); got != rev20260728 {
		t.Errorf("a request naming 2026-07-28 in its _meta: %q", got)
	}
	httpNoHeader := &mcp.ListToolsRequest{Extra: &mcp.RequestExtra{Header: http.Header{}}}
	if got := revisionOf(httpNoHeader); got != rev20250326 {
		t.Errorf("an HTTP request with no version: %q, want 2025-03-26 as the transport spec says", got)
	}
}

// keys lists the members of v marshalled, sorted.
func keys(t *testing.T, v any) []string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestToolResultByRevision(t *testing.T) {
	full := &mcp.CallToolResult{
		Content: []mcp.Content{
			&mcp.TextContent{Text: `{"success":true}`},
			&mcp.AudioContent{Data: []byte("a"), MIMEType: "audio/wav"},
			&mcp.ResourceLink{URI: "hostmcp://artifact/a1", Name: "a1"},
		},
		StructuredContent: json.RawMessage(`{"success":true}`),
		// The call's provenance: _meta is defined on every revision's result.
		Meta: mcp.Meta{tool.ProvenanceKey: tool.Provenance{Tool: "t"}},
	}
	want := map[string]struct {
		keys    []string
		content []string
	}{
		rev20241105: {[]string{"_meta", "content"}, []string{"text"}},
		rev20250326: {[]string{"_meta", "content"}, []string{"text", "audio"}},
		rev20250618: {[]string{"_meta", "content", "structuredContent"}, []string{"text", "audio", "resource_link"}},
		rev20251125: {[]string{"_meta", "content", "structuredContent"}, []string{"text", "audio", "resource_link"}},
	}
	for _, rev := range allRevisions {
		got := legacyResult(rev, full)
		if diff := cmp.Diff(want[rev].keys, keys(t, got)); diff != "" {
			t.Errorf("%s: members (-want +got):\n%s", rev, diff)
		}
		b, _ := json.Marshal(got)
		var wire struct {
			Content []struct {
				Type string `json:"type"`
			} `json:"content"`
		}
		if err := json.Unmarshal(b, &wire); err != nil {
			t.Fatal(err)
		}
		var types []string
		for _, c := range wire.Content {
			types = append(types, c.Type)
		}
		if diff := cmp.Diff(want[rev].content, types); diff != "" {
			t.Errorf("%s: content types (-want +got):\n%s", rev, diff)
		}
	}
	if len(full.Content) != 3 || full.StructuredContent == nil {
		t.Error("the SDK's result was changed in place")
	}
}

func TestListsByRevision(t *testing.T) {
	yes := true
	tl := &mcp.Tool{
		Name: "t", Title: "T", Description: "d", InputSchema: json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &mcp.ToolAnnotations{Title: "T", DestructiveHint: &yes, OpenWorldHint: &yes},
		Icons: []mcp.Icon{{Source: "data:,"}}, Meta: mcp.Meta{"ui": 1},
	}
	pr := &mcp.Prompt{Name: "p", Title: "P", Arguments: []*mcp.PromptArgument{{Name: "focus", Title: "Focus"}}}
	rt := &mcp.ResourceTemplate{Name: "h", Title: "H", URITemplate: "hostmcp://handle/{id}"}
	tools := &mcp.ListToolsResult{Tools: []*mcp.Tool{tl}}
	prompts := &mcp.ListPromptsResult{Prompts: []*mcp.Prompt{pr}}
	templates := &mcp.ListResourceTemplatesResult{ResourceTemplates: []*mcp.ResourceTemplate{rt}}
	want := map[string][]string{
		rev20241105: {"description", "inputSchema", "name"},
		rev20250326: {"annotations", "description", "inputSchema", "name"},
		rev20250618: {"_meta", "annotations", "description", "inputSchema", "name", "outputSchema", "title"},
		rev20251125: {"_meta", "annotations", "description", "icons", "inputSchema", "name", "outputSchema", "title"},
	}
	for _, rev := range allRevisions {
		lt := legacyResult(rev, tools).(*toolList)
		if diff := cmp.Diff(want[rev], keys(t, lt.Tools[0])); diff != "" {
			t.Errorf("%s: tool members (-want +got):\n%s", rev, diff)
		}
		for _, res := range []mcp.Result{lt, legacyResult(rev, prompts), legacyResult(rev, templates)} {
			if got := keys(t, res); slices.Contains(got, "ttlMs") || slices.Contains(got, "cacheScope") {
				t.Errorf("%s: %T carries the 2026-07-28 cache hints: %v", rev, res, got)
			}
		}
		titled := rev >= rev20250618
		p := legacyResult(rev, prompts).(*promptList).Prompts[0]
		if (p.Title != "") != titled || (p.Arguments[0].Title != "") != titled {
			t.Errorf("%s: prompt titles %q and %q", rev, p.Title, p.Arguments[0].Title)
		}
		if r := legacyResult(rev, templates).(*templateList).ResourceTemplates[0]; (r.Title != "") != titled {
			t.Errorf("%s: resource template title %q", rev, r.Title)
		}
	}
	if tl.Title == "" || tl.OutputSchema == nil || tl.Annotations == nil || tl.Icons == nil || pr.Title == "" || pr.Arguments[0].Title == "" || rt.Title == "" {
		t.Error("the SDK's shared definitions were changed in place")
	}
}

func TestInitializeByRevision(t *testing.T) {
	init := &mcp.InitializeResult{ProtocolVersion: rev20241105, ServerInfo: &mcp.Implementation{Name: "hostmcp", Title: "hostmcp", Version: "1", WebsiteURL: "https://example.org"}}
	for _, rev := range allRevisions {
		got := legacyResult(rev, init).(*mcp.InitializeResult).ServerInfo
		if (got.Title != "") != (rev >= rev20250618) || (got.WebsiteURL != "") != (rev >= rev20251125) || got.Name != "hostmcp" || got.Version != "1" {
			t.Errorf("%s: serverInfo %+v", rev, got)
		}
	}
	if init.ServerInfo.Title == "" {
		t.Error("the SDK's server identity was changed in place")
	}
}
