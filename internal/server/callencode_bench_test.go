package server

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// searchHit is a hit of search_content: a line and the lines around it.
type searchHit struct {
	Path    string   `json:"path"`
	Line    int      `json:"line"`
	Text    string   `json:"text"`
	Context []string `json:"context"`
}

// searchData is data like search_content's for content-many
// (bench/RESULTS.md): 192 hits with three lines of Go around each.
type searchData struct {
	Hits   []searchHit `json:"hits"`
	Total  int         `json:"total"`
	Handle string      `json:"handle"`
}

func newSearchData() searchData {
	hits := make([]searchHit, 192)
	for i := range hits {
		hits[i] = searchHit{Path: fmt.Sprintf("/usr/local/go/src/net/http/h2_bundle_%d.go", i), Line: 1000 + i,
			Text:    "\t\treturn errors.New(\"http2: invalid header field value for \\\"<name>\\\"\")",
			Context: []string{"\tif !httpguts.ValidHeaderFieldValue(v) { // RFC 7230 section 3.2, the field-value rule", "\t\t// Don't include the value in the error, because it may be sensitive.", "\t}"}}
	}
	return searchData{Hits: hits, Total: 2500, Handle: "H_0123456789abcdef"}
}

// searchAnswer is the tools/call result of newSearchData: an envelope of
// about 65 KB as text and as structuredContent, with the call's
// provenance in _meta.
func searchAnswer(b *testing.B) *mcp.CallToolResult {
	env, err := tool.MarshalJSON(map[string]any{"success": true, "data": newSearchData()})
	if err != nil {
		b.Fatal(err)
	}
	return &mcp.CallToolResult{
		Meta:              mcp.Meta{tool.ProvenanceKey: tool.Provenance{Tool: "search_content", ToolVersion: "1", Host: "h", Timestamp: "2026-11-26T21:00:00Z", DurationMS: 7}},
		Content:           []mcp.Content{&mcp.TextContent{Text: string(env)}},
		StructuredContent: jsonRaw(env),
	}
}

// BenchmarkStdioResultEncoding is what a tools/call result costs from the
// handler's CallToolResult to the line written over stdio: the result
// middleware, the SDK's encoding of the result (jsonrpc2 encodes it as
// tool.MarshalJSON does) and the stdio connection's write, for a 65 KB
// search answer.
func BenchmarkStdioResultEncoding(b *testing.B) {
	res := searchAnswer(b)
	tr := stdioTransport(strings.NewReader(""), io.Discard, 1<<20)
	ctx := stdioCallContext(context.Background(), tr)
	conn, err := tr.Connect(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	id, err := jsonrpc.MakeID(float64(7))
	if err != nil {
		b.Fatal(err)
	}
	h := encodeCallResults(func(context.Context, string, mcp.Request) (mcp.Result, error) { return res, nil })
	b.SetBytes(int64(len(res.Content[0].(*mcp.TextContent).Text)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := h(ctx, "tools/call", nil)
		if err != nil {
			b.Fatal(err)
		}
		js, err := tool.MarshalJSON(r)
		if err != nil {
			b.Fatal(err)
		}
		if err := conn.Write(ctx, &jsonrpc.Response{ID: id, Result: js}); err != nil {
			b.Fatal(err)
		}
	}
}
