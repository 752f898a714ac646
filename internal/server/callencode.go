package server

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// Encoding a tool's result once. A tools/call result holds the envelope
// twice: as structuredContent, and escaped as the text content. The SDK
// encodes it through nested json.Marshalers (the text content's, the
// result's, the JSON-RPC message's), and encoding/json compacts, byte by
// byte, the output of every Marshaler it meets: the envelope was scanned
// four times after the tool had encoded it, a quarter of the server's CPU
// for a 200-line fs_read over stdio (issue 20 point 2, bench/RESULTS.md).
// encodedCallResult builds the same JSON with the envelope copied as it is
// and escaped once; encoding/json still checks the whole once, and the
// stdio transport writes the response around it without a further pass
// (rawResponseConn).

// encodedCallResult is a CallToolResult whose JSON is built by splicing:
// embedding keeps it an mcp.Result, and every field the SDK reads.
type encodedCallResult struct {
	*mcp.CallToolResult
}

// encodeCallResults is a receiving middleware, outside every one that
// shapes results: the CallToolResult it sees is the one to send.
func encodeCallResults(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.CallToolResult); ok && err == nil && spliceable(r) {
			return encodedCallResult{r}, nil
		}
		return res, err
	}
}

// spliceable reports whether r has the shape MarshalJSON splices: no
// _meta (which the SDK writes first, before the content), a first content
// block of plain text, and structuredContent absent or already JSON.
func spliceable(r *mcp.CallToolResult) bool {
	if r.Meta != nil || len(r.Content) == 0 {
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

// The SDK's JSON of a CallToolResult with an empty first text block and,
// when there is one, structuredContent 0 starts with textMark and holds
// structuredMark once; the real text and structuredContent go in their
// place.
var (
	textMark       = []byte(`{"content":[{"type":"text","text":""`)
	structuredMark = []byte(`],"structuredContent":0`)
)

// MarshalJSON lets the SDK encode the result with the text and the
// structured content left out (the rest, _meta of links and resultType
// included, as it always does), then splices them in.
func (r encodedCallResult) MarshalJSON() ([]byte, error) {
	skeleton := *r.CallToolResult
	skeleton.Content = append([]mcp.Content{&mcp.TextContent{}}, r.Content[1:]...)
	raw, hasStructured := r.StructuredContent.(json.RawMessage)
	if hasStructured {
		skeleton.StructuredContent = json.RawMessage("0")
	}
	frame, err := skeleton.MarshalJSON()
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(frame, textMark) || (hasStructured && bytes.Count(frame, structuredMark) != 1) {
		return r.CallToolResult.MarshalJSON() // a shape this does not know: the SDK's own way
	}
	text, err := tool.MarshalJSON(r.Content[0].(*mcp.TextContent).Text)
	if err != nil {
		return nil, err
	}
	rest := frame[len(textMark)-len(`""`):]
	out := make([]byte, 0, len(frame)+len(text)+len(raw))
	out = append(out, textMark[:len(textMark)-len(`""`)]...)
	out = append(out, text...)
	if !hasStructured {
		return append(out, rest[len(`""`):]...), nil
	}
	at := bytes.Index(rest, structuredMark)
	out = append(out, rest[len(`""`):at]...)
	out = append(out, structuredMark[:len(structuredMark)-1]...)
	out = append(out, raw...)
	return append(out, rest[at+len(structuredMark):]...), nil
}
