package server

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callResult's encoding is the SDK's, value for value: the same members,
// the same text (escaping aside: the SDK also escapes <, > and & in it),
// the same structuredContent.
func TestEncodedCallResultIsTheSDKs(t *testing.T) {
	envelope := json.RawMessage(`{"success":true,"tool":"fs_read","data":{"content":"a\tb \"q\" <x> & \u2028 é\n","meta":{"path":"/r/a.go"}}}`)
	size := int64(12)
	tests := []struct {
		name string
		res  *mcp.CallToolResult
	}{
		{"envelope", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(envelope)}}, StructuredContent: envelope}},
		{"error", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"success":false}`}}, StructuredContent: json.RawMessage(`{"success":false}`), IsError: true}},
		{"links", &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: string(envelope)},
			&mcp.ResourceLink{URI: "hostmcp://handle/H_x", Name: "h", Size: &size, Description: `],"structuredContent":0`},
		}, StructuredContent: envelope}},
		{"no structured content (before 2025-06-18)", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(envelope)}}}},
		{"empty text", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{}}, StructuredContent: json.RawMessage(`{}`)}},
		// Every tool's answer carries its provenance in _meta.
		{"provenance", &mcp.CallToolResult{Meta: mcp.Meta{"io.hostmcp/call": map[string]any{"tool": "fs_read", "duration_ms": 3, "host": "h"}},
			Content: []mcp.Content{&mcp.TextContent{Text: string(envelope)}}, StructuredContent: envelope}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !spliceable(tc.res) {
				t.Fatal("not spliceable")
			}
			want, err := tc.res.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			plain, ok := plainResult(tc.res)
			if !ok {
				t.Fatal("plainResult refused it")
			}
			got, err := json.Marshal(plain)
			if err != nil {
				t.Fatal(err)
			}
			if !json.Valid(got) {
				t.Fatalf("not JSON: %s", got)
			}
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(want, &w); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(w, g); d != "" {
				t.Errorf("callResult's encoding differs from the SDK's (-sdk +callResult):\n%s\nsdk:        %s\ncallResult: %s", d, want, got)
			}
		})
	}
}

// What callResult does not hold goes the SDK's way: a first block that
// is not plain text, structuredContent that is not JSON already.
func TestEncodeCallResultsLeavesOtherShapes(t *testing.T) {
	tests := []struct {
		name string
		res  *mcp.CallToolResult
	}{
		{"no content", &mcp.CallToolResult{Content: []mcp.Content{}}},
		{"image first", &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: []byte("x"), MIMEType: "image/png"}}}},
		{"annotated text", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "x", Annotations: &mcp.Annotations{Priority: 1}}}}},
		{"structured map", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "x"}}, StructuredContent: map[string]any{"a": 1}}},
		{"empty raw", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "x"}}, StructuredContent: json.RawMessage{}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := encodeCallResults(func(context.Context, string, mcp.Request) (mcp.Result, error) { return tc.res, nil })
			got, err := h(context.Background(), "tools/call", nil)
			if err != nil {
				t.Fatal(err)
			}
			if got != mcp.Result(tc.res) {
				t.Errorf("result replaced by %T", got)
			}
		})
	}
}

// The stdio connection writes a result response as the SDK's writer does,
// and the rest through the SDK's writer.
func TestRawResponseLineIsTheSDKs(t *testing.T) {
	ctx := context.Background()
	result := json.RawMessage(`{"content":[{"type":"text","text":"{\"a\":\"<b>\"}"}],"structuredContent":{"a":"<b>"}}`)
	msgs := []jsonrpc.Message{
		&jsonrpc.Response{ID: mustID(t, float64(7)), Result: result},
		&jsonrpc.Response{ID: mustID(t, "req-<1>"), Result: result},
		&jsonrpc.Response{ID: mustID(t, float64(8)), Error: &jsonrpc.Error{Code: -32602, Message: "bad"}},
		&jsonrpc.Request{Method: "notifications/progress", Params: json.RawMessage(`{"progress":1}`)},
	}
	for _, m := range msgs {
		var raw, sdk bytes.Buffer
		conn, err := (&rawResponseTransport{inner: &mcp.IOTransport{Reader: io.NopCloser(strings.NewReader("")), Writer: bufferCloser{&raw}}, out: &raw}).Connect(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := conn.Write(ctx, m); err != nil {
			t.Fatal(err)
		}
		plain, err := (&mcp.IOTransport{Reader: io.NopCloser(strings.NewReader("")), Writer: bufferCloser{&sdk}}).Connect(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := plain.Write(ctx, m); err != nil {
			t.Fatal(err)
		}
		if raw.String() != sdk.String() {
			t.Errorf("%T written as\n%s\nthe SDK writes\n%s", m, raw.String(), sdk.String())
		}
	}
}

func mustID(t *testing.T, v any) jsonrpc.ID {
	t.Helper()
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

type bufferCloser struct{ *bytes.Buffer }

func (bufferCloser) Close() error { return nil }
