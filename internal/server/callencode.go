package server

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Encoding a tool's result once. A tools/call result holds the envelope
// twice: as structuredContent, and escaped as the text content. The SDK
// encodes it through nested json.Marshalers (the text content's, the
// result's, the JSON-RPC message's), and encoding/json compacts, byte by
// byte, the output of every Marshaler it meets: the envelope was scanned
// four times after the tool had encoded it, the text among them escaped
// (a quarter of the server's CPU for a 200-line fs_read over stdio, issue
// 20 point 2, bench/RESULTS.md). callResult is the same result as a plain
// struct, which encoding/json writes field by field: the text escaped once,
// the structuredContent checked once; and the stdio transport writes the
// response around it without a further pass (rawResponseConn).

// callResult is a CallToolResult of the shape spliceable accepts, with the
// members the SDK writes for it, in its order. Like the project's other
// result types (eras_shape.go) it is an mcp.Result through ResultBase.
type callResult struct {
	mcp.ResultBase
	Content           []any           `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	IsError           bool            `json:"isError,omitempty"`
	ResultType        string          `json:"resultType,omitempty"`
}

// textBlock is a text content block without _meta or annotations, as the
// SDK writes one.
type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// encodeCallResults is a receiving middleware, outside every one that
// shapes results: the CallToolResult it sees is the one to send. Over
// stdio the result writes its own JSON (selfencoded.go).
func encodeCallResults(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.CallToolResult); ok && err == nil && spliceable(r) {
			if plain, ok := plainResult(r); ok {
				if to := encodedResultsOf(ctx); to != nil {
					return &selfEncodedResult{callResult: plain, to: to}, nil
				}
				return plain, nil
			}
		}
		return res, err
	}
}

// spliceable reports whether r has a shape callResult holds whole: no
// input requests, a first content block of plain text, and
// structuredContent absent or already JSON. Its _meta (every answer's
// provenance) goes along as it is.
func spliceable(r *mcp.CallToolResult) bool {
	if r.InputRequests != nil || r.RequestState != "" || r.NeedsInput() || len(r.Content) == 0 {
		return false
	}
	t, ok := r.Content[0].(*mcp.TextContent)
	if !ok || t.Meta != nil || t.Annotations != nil {
		return false
	}
	switch sc := r.StructuredContent.(type) {
	case nil:
		return true
	case json.RawMessage:
		return len(sc) > 0
	}
	return false
}

// completeMark is the resultType the SDK gives a finished result for a
// client of 2026-07-28 or later (none for older ones); spliceable has
// refused a result that needs input.
var completeMark = []byte(`"resultType":"complete"`)

// plainResult is r as a callResult. The resultType is not exported: it is
// read from the SDK's own encoding of r without its content, a few bytes.
func plainResult(r *mcp.CallToolResult) (*callResult, bool) {
	bare := *r
	bare.Meta, bare.Content, bare.StructuredContent = nil, nil, nil
	frame, err := bare.MarshalJSON()
	if err != nil {
		return nil, false
	}
	out := &callResult{ResultBase: mcp.ResultBase{Meta: r.Meta}, IsError: r.IsError, Content: make([]any, len(r.Content))}
	if bytes.Contains(frame, completeMark) {
		out.ResultType = "complete"
	} else if bytes.Contains(frame, []byte(`"resultType"`)) {
		return nil, false // a resultType this does not know: the SDK's way
	}
	out.Content[0] = textBlock{Type: "text", Text: r.Content[0].(*mcp.TextContent).Text}
	for i, c := range r.Content[1:] {
		out.Content[i+1] = c // links and the like: the SDK's own encoding
	}
	if raw, ok := r.StructuredContent.(json.RawMessage); ok {
		out.StructuredContent = raw
	}
	return out, true
}
