package server

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// hostileText holds what a file or a command line may put in an answer:
// quotes, backslashes, control bytes, U+2028 and U+2029, invalid UTF-8,
// and <, > and &, which encoding/json escapes only with HTML escaping.
const hostileText = "a\"b\\c\x00\x01\x1f\t\r\n \u2028\u2029 \xff\xfe\xc3 <script>&amp; é 日本"

// hostileEnvelope is an envelope holding hostileText, as the runner makes
// one: compact JSON from tool.MarshalJSON.
func hostileEnvelope(t testing.TB) json.RawMessage {
	t.Helper()
	js, err := tool.MarshalJSON(map[string]any{"success": true, "data": map[string]any{"content": hostileText, "path": "/r/<a>&b\u2028.go"}})
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// callResults are the shapes a tools/call result takes: the envelope as
// text and structuredContent (every revision since 2025-06-18), the text
// alone (before), links after the text, an error, the provenance in
// _meta, and structuredContent that is not the text.
func callResults(t testing.TB) map[string]*mcp.CallToolResult {
	env := hostileEnvelope(t)
	size := int64(12)
	return map[string]*mcp.CallToolResult{
		"envelope":            {Content: []mcp.Content{&mcp.TextContent{Text: string(env)}}, StructuredContent: env},
		"text alone, hostile": {Content: []mcp.Content{&mcp.TextContent{Text: hostileText}}},
		"error":               {Content: []mcp.Content{&mcp.TextContent{Text: `{"success":false}`}}, StructuredContent: json.RawMessage(`{"success":false}`), IsError: true},
		"links": {Content: []mcp.Content{
			&mcp.TextContent{Text: string(env)},
			&mcp.ResourceLink{URI: "hostmcp://handle/H_x", Name: "h<1>", Size: &size, Description: `],"structuredContent":0 ` + hostileText},
		}, StructuredContent: env},
		"provenance": {Meta: mcp.Meta{"io.hostmcp/call": map[string]any{"tool": "fs_read", "duration_ms": 3, "host": "h&<>"}},
			Content: []mcp.Content{&mcp.TextContent{Text: string(env)}}, StructuredContent: env},
		"structuredContent not the text": {Content: []mcp.Content{&mcp.TextContent{Text: "x"}}, StructuredContent: json.RawMessage("{ \"a\" : [1, \"<b>\"] }")},
		"empty text":                     {Content: []mcp.Content{&mcp.TextContent{}}, StructuredContent: json.RawMessage(`{}`)},
	}
}

// appendCallResult writes a callResult as encoding/json does, byte for
// byte, so a result that encodes itself is the one the SDK wrote before;
// and that is the SDK's own CallToolResult, value for value.
func TestAppendCallResultIsEncodingJSONs(t *testing.T) {
	for name, res := range callResults(t) {
		t.Run(name, func(t *testing.T) {
			plain, ok := plainResult(res)
			if !ok {
				t.Fatal("plainResult refused it")
			}
			for _, resultType := range []string{"", "complete"} {
				plain.ResultType = resultType
				got, err := appendCallResult(nil, plain)
				if err != nil {
					t.Fatal(err)
				}
				want, err := tool.MarshalJSON(plain) // as the SDK's jsonrpc2 encodes a result
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != string(want) {
					t.Errorf("resultType %q: appended\n%s\nencoding/json writes\n%s", resultType, got, want)
				}
			}
			plain.ResultType = ""
			got, _ := appendCallResult(nil, plain)
			sdk, err := res.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(decodeJSON(t, sdk), decodeJSON(t, got)); d != "" {
				t.Errorf("differs from the SDK's encoding (-sdk +appended):\n%s", d)
			}
		})
	}
}

func decodeJSON(t testing.TB, b []byte) any {
	t.Helper()
	if !json.Valid(b) {
		t.Fatalf("not JSON: %s", b)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// fixedToolServer is an mcp.Server with the middleware ServeStdio's server
// has around results, and one tool, "answer", whose result is res; the
// tool first waits for release, if not nil, or for its context to end.
func fixedToolServer(res *mcp.CallToolResult, release <-chan struct{}) *mcp.Server {
	return gatedToolServer(res, release, nil)
}

// gatedToolServer is fixedToolServer whose tool, when it is called, first
// closes started.
func gatedToolServer(res *mcp.CallToolResult, release <-chan struct{}, started chan<- struct{}) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "answer", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if started != nil {
				close(started)
			}
			if release != nil {
				select {
				case <-release:
				case <-ctx.Done():
				}
			}
			return res, nil
		})
	srv.AddReceivingMiddleware(encodeCallResults)
	return srv
}

// stdioSession is srv served over the stdio transport ServeStdio uses
// (own true), or over the SDK's plain one.
type stdioSession struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Reader
	tr   *rawResponseTransport
	done chan struct{} // closed when the session has ended
}

func startStdio(t *testing.T, srv *mcp.Server, own bool) *stdioSession {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stdioSession{t: t, in: inW, out: bufio.NewReaderSize(outR, 1<<20), done: make(chan struct{})}
	ctx := context.Background()
	if own {
		s.tr = stdioTransport(inR, outW, 1<<20)
		go func() { _ = serveStdio(ctx, srv, s.tr); close(s.done) }()
	} else {
		go func() { _ = srv.Run(ctx, &mcp.IOTransport{Reader: inR, Writer: outW}); close(s.done) }()
	}
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
		<-s.done
	})
	s.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	s.line()
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

func (s *stdioSession) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatal(err)
	}
}

func (s *stdioSession) line() []byte {
	s.t.Helper()
	l, err := s.out.ReadBytes('\n')
	if err != nil {
		s.t.Fatal(err)
	}
	return l
}

// end closes the session's input and waits for it to end.
func (s *stdioSession) end() {
	s.in.Close()
	<-s.done
}

const callAnswer = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"answer","arguments":{}}}`

// Over the real stdio transport, the line written for a tools/call result
// that encoded itself is the SDK's, value for value, for every shape.
func TestStdioCallResultIsTheSDKs(t *testing.T) {
	for name, res := range callResults(t) {
		t.Run(name, func(t *testing.T) {
			own := startStdio(t, fixedToolServer(res, nil), true)
			own.send(callAnswer)
			got := own.line()
			sdkSrv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
			sdkSrv.AddTool(&mcp.Tool{Name: "answer", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return res, nil })
			sdk := startStdio(t, sdkSrv, false)
			sdk.send(callAnswer)
			want := sdk.line()
			if d := cmp.Diff(decodeJSON(t, want), decodeJSON(t, got)); d != "" {
				t.Errorf("stdio line differs from the SDK's (-sdk +hostmcp):\n%s\nhostmcp: %.400s", d, got)
			}
			if n := own.tr.encoded.heldCount(); n != 0 {
				t.Errorf("%d results still held after their write", n)
			}
		})
	}
}

// The runner's envelope goes out as the runner made it: encoding/json does
// not pass over it again. This one has spaces encoding/json would take
// out (the runner's never has any): they are still there.
func TestStdioEnvelopeIsNotEncodedAgain(t *testing.T) {
	env := `{"success": true, "data": {"a": "<b>"}}`
	s := startStdio(t, fixedToolServer(&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: env}}, StructuredContent: json.RawMessage(env)}, nil), true)
	s.send(callAnswer)
	if got := s.line(); !strings.Contains(string(got), `"structuredContent":`+env+`}`) {
		t.Errorf("structuredContent was encoded again:\n%s", got)
	}
}

// A cancelled call's result is not written, and not kept.
func TestCancelledSelfEncodedResultIsNotWrittenNorKept(t *testing.T) {
	env := hostileEnvelope(t)
	started := make(chan struct{})
	s := startStdio(t, gatedToolServer(&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(env)}}, StructuredContent: env}, make(chan struct{}), started), true)
	s.send(callAnswer)
	<-started // its result is then one the tool made, not the SDK's error
	s.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	cancelled := s.tr.out.(*lockedWriter).cancelled
	// The id is forgotten once its response has been dropped.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		cancelled.mu.Lock()
		pending := len(cancelled.ids)
		cancelled.mu.Unlock()
		if pending == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the cancelled call's response never went to the writer")
		}
	}
	if n := s.tr.encoded.heldCount(); n != 0 {
		t.Errorf("%d results held after the cancelled call's response was dropped", n)
	}
	s.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if got := s.line(); !strings.HasPrefix(string(got), `{"jsonrpc":"2.0","id":3,`) {
		t.Errorf("the line after the cancelled call is %.300s, want the ping's answer", got)
	}
}

// A result encoded while its session ends is never written (the SDK
// refuses writes once the input has ended), and let go when the
// connection closes.
func TestUnwrittenResultIsLetGo(t *testing.T) {
	env := hostileEnvelope(t)
	started := make(chan struct{})
	s := startStdio(t, gatedToolServer(&mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(env)}}, StructuredContent: env}, make(chan struct{}), started), true)
	s.send(callAnswer)
	<-started
	go io.Copy(io.Discard, s.out) //nolint:errcheck // drained until the pipe closes
	s.end()
	if n := s.tr.encoded.heldCount(); n != 0 {
		t.Errorf("%d results held after the session ended", n)
	}
}

// Past maxHeldResults a result goes out the SDK's way, and the same.
func TestHeldResultsAreBounded(t *testing.T) {
	var e encodedResults
	for range maxHeldResults {
		if _, ok := e.hold(heldResult{buf: []byte(`{}`)}); !ok {
			t.Fatal("refused under the bound")
		}
	}
	res := callResults(t)["envelope"]
	plain, _ := plainResult(res)
	got, err := tool.MarshalJSON(&selfEncodedResult{callResult: plain, to: &e})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := tool.MarshalJSON(plain)
	if string(got) != string(want) || e.heldCount() != maxHeldResults {
		t.Errorf("past the bound: %.200s, %d held", got, e.heldCount())
	}
}

// A token is taken by the connection that holds it, once; any other
// result is written as it is.
func TestTakeOnlyItsOwnTokens(t *testing.T) {
	var a, b encodedResults
	token, _ := a.hold(heldResult{buf: []byte(`{"x":1}`)})
	for _, tc := range []struct {
		name   string
		from   *encodedResults
		result string
		ok     bool
	}{
		{"another connection's", &b, string(token), false},
		{"a result that begins like one", &a, string(token[:len(token)-1]) + `,"y":2}`, false},
		{"none held", nil, string(token), false},
		{"its own", &a, string(token), true},
		{"its own, again", &a, string(token), false},
	} {
		held, ok := tc.from.take([]byte(tc.result))
		if ok != tc.ok || ok && string(held.json()) != `{"x":1}` {
			t.Errorf("%s: take = %s, %v; want ok %v", tc.name, held.buf, ok, tc.ok)
		}
	}
}

// Over streamable HTTP, sharing the mcp.Server with a stdio session, a
// result is the SDK's as before: no result encodes itself there.
func TestHTTPCallResultUnchanged(t *testing.T) {
	res := callResults(t)["provenance"]
	srv := fixedToolServer(res, nil)
	startStdio(t, srv, true) // the same server serves stdio meanwhile
	h := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer h.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: h.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	got, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "answer", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	gotJS, err := got.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want, err := res.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(decodeJSON(t, want), decodeJSON(t, gotJS)); d != "" {
		t.Errorf("HTTP result differs from the SDK's (-sdk +http):\n%s", d)
	}
}

// stdioCallContext is the context ServeStdio gives t's requests.
func stdioCallContext(ctx context.Context, t *rawResponseTransport) context.Context {
	return withEncodedResults(ctx, t.encoded)
}

// A held result's line is made in the room before it when its id fits
// there, and copied when not: the same line either way.
func TestHeldResultLine(t *testing.T) {
	js := `{"content":[]}`
	for _, id := range []string{`7`, `"` + strings.Repeat("i", 30) + `"`, `"` + strings.Repeat("d", 31) + `"`, `"` + strings.Repeat("x", 200) + `"`} {
		buf := append(make([]byte, lineHeadRoom, lineHeadRoom+len(js)+len(responseTail)), js...)
		got := heldResult{buf: buf, at: lineHeadRoom}.line([]byte(id))
		if want := `{"jsonrpc":"2.0","id":` + id + `,"result":` + js + "}\n"; string(got) != want {
			t.Errorf("id %.40s: line\n%s\nwant\n%s", id, got, want)
		}
	}
}
