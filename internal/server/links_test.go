package server

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// A result's content is the envelope's text, then a link per handle and
// artifact; clients before 2025-06-18 get the text alone (contentFor).
func TestToolContentLinks(t *testing.T) {
	res := tool.Result{JSON: []byte(`{"success":true}`), Links: []tool.Link{
		tool.HandleLink("H_result_1", "result", map[string]any{"tool": "x"}, 42),
		tool.ArtifactLink("A_1", "perf_cpu_profile", "flamegraph", "image/svg+xml", 7),
	}}
	for version, want := range map[string]int{"2024-11-05": 1, "2025-03-26": 1, "2025-06-18": 3, "2025-11-25": 3, "2026-07-28": 3} {
		got := contentFor(version, toolContent(res))
		if len(got) != want {
			t.Errorf("%q: %d content items, want %d", version, len(got), want)
			continue
		}
		if tc, ok := got[0].(*mcp.TextContent); !ok || tc.Text != string(res.JSON) {
			t.Errorf("%q: the first item is not the envelope's text: %#v", version, got[0])
		}
		if want == 1 {
			continue
		}
		l, ok := got[2].(*mcp.ResourceLink)
		if !ok || l.URI != "hostmcp://artifact/A_1" || l.Name != "A_1" || l.MIMEType != "image/svg+xml" || l.Size == nil || *l.Size != 7 {
			t.Errorf("%q: the artifact's link is %#v", version, got[2])
		}
	}
}

// A link to more than one resources/read returns says so and names the
// tool that pages it.
func TestLinkOverOneReadSaysHowToPage(t *testing.T) {
	res := tool.Result{JSON: []byte(`{}`), Links: []tool.Link{
		tool.HandleLink("H_result_1", "result", nil, maxResourceBytes),
		tool.HandleLink("H_result_2", "result", nil, maxResourceBytes+1),
		tool.ArtifactLink("A_1", "perf_cpu_profile", "pprof", "application/octet-stream", maxResourceBytes+1),
	}}
	got := toolContent(res)
	for i, want := range []string{"", "handle_read", "perf_get_artifact"} {
		l := got[i+1].(*mcp.ResourceLink)
		if (want == "") != (l.Description == "") || !strings.Contains(l.Description, want) {
			t.Errorf("%s of %d bytes: description %q, want one naming %q", l.URI, *l.Size, l.Description, want)
		}
	}
}
