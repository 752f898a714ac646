package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// revision is what one MCP protocol revision defines of what hostmcp can
// send: tool annotations arrived in 2025-03-26; titles, outputSchema and
// structuredContent in 2025-06-18; resultType and the list results' cache
// hints (ttlMs, cacheScope) in 2026-07-28.
type revision struct {
	name        string
	annotations bool
	titles      bool
	structured  bool
	newest      bool // resultType, ttlMs and cacheScope
}

var revisions = []revision{
	{name: "2024-11-05"},
	{name: "2025-03-26", annotations: true},
	{name: "2025-06-18", annotations: true, titles: true, structured: true},
	{name: "2025-11-25", annotations: true, titles: true, structured: true},
	{name: "2026-07-28", annotations: true, titles: true, structured: true, newest: true},
}

// A client gets what the revision it negotiated defines, and nothing newer,
// over stdio and over HTTP; the text content carries the envelope in every
// revision.
func TestProtocolEras(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "")
	if err := os.WriteFile(filepath.Join(e.root, "era.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, r := range revisions {
		t.Run("stdio/"+r.name, func(t *testing.T) {
			ctx := testCtx(t)
			cmd := exec.Command(binary, e.args("serve")...)
			cmd.Stderr = &testLog{t: t}
			var wire wireLog
			cs := connectAt(t, ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, r.name, &wire)
			checkRevision(t, ctx, cs, &wire, r)
		})
	}
	s := e.startHTTP(t, testToken, "127.0.0.1:0")
	for _, r := range revisions {
		t.Run("http/"+r.name, func(t *testing.T) {
			ctx := testCtx(t)
			var wire wireLog
			// Logged by HTTP exchange: the SDK's LoggingTransport would hide
			// the negotiated version from its HTTP transport, which then
			// sends no Mcp-Protocol-Version header.
			cs := connectAt(t, ctx, &mcp.StreamableClientTransport{
				Endpoint:   s.base + "/mcp",
				HTTPClient: &http.Client{Transport: &recordingTransport{next: bearerTransport{testToken}, wire: &wire}},
			}, r.name, nil)
			checkRevision(t, ctx, cs, &wire, r)
		})
	}
}

// A client that asks for 2026-07-28 through the older initialize handshake
// is answered with 2025-11-25, and is then served that revision: no
// resultType, though the version it asked for has one.
func TestInitializeAskingForTheNewestIsServedWhatWasNegotiated(t *testing.T) {
	s := startRawAt(t, newEnv(t, ""), "2026-07-28")
	if got := s.protocol; got != "2025-11-25" {
		t.Fatalf("negotiated %q, want 2025-11-25", got)
	}
	s.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fs_list","arguments":{"path":"."}}}`)
	r := s.next()
	var res map[string]json.RawMessage
	if err := json.Unmarshal(r.Result, &res); err != nil || string(r.ID) != "2" {
		t.Fatalf("want the result of call 2, got %s", r.line)
	}
	if _, ok := res["resultType"]; ok {
		t.Errorf("a 2025-11-25 session got resultType: %s", r.line)
	}
	if _, ok := res["structuredContent"]; !ok {
		t.Errorf("a 2025-11-25 session got no structuredContent: %s", r.line)
	}
}

// connectAt connects the go-sdk client asking for protocol revision rev,
// logging every message on the wire to wire unless it is nil.
func connectAt(t *testing.T, ctx context.Context, tr mcp.Transport, rev string, wire *wireLog) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-eras", Version: "1"}, nil)
	if wire != nil {
		tr = &mcp.LoggingTransport{Transport: tr, Writer: wire}
	}
	cs, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: rev})
	if err != nil {
		t.Fatalf("connecting at %s: %v", rev, err)
	}
	t.Cleanup(func() { cs.Close() })
	if got := cs.InitializeResult().ProtocolVersion; got != rev {
		t.Fatalf("negotiated %q, want %q", got, rev)
	}
	return cs
}

// checkRevision lists the tools and calls one, then checks the raw JSON the
// server sent: the client's decoding would drop fields it does not know.
func checkRevision(t *testing.T, ctx context.Context, cs *mcp.ClientSession, wire *wireLog, want revision) {
	t.Helper()
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "fs_list", Arguments: map[string]any{"path": "."}}); err != nil {
		t.Fatalf("tools/call: %v", err)
	}

	list := wire.result(t, "tools/list")
	var tools []map[string]json.RawMessage
	if err := json.Unmarshal(list["tools"], &tools); err != nil || len(tools) == 0 {
		t.Fatalf("tools/list result has no tools: %v", err)
	}
	for _, field := range []struct {
		key  string
		want bool
	}{{"annotations", want.annotations}, {"title", want.titles}, {"outputSchema", want.structured}} {
		if n := countWith(tools, field.key); n != 0 && !field.want {
			t.Errorf("%d of %d tools carry %s, which %s does not define", n, len(tools), field.key, want.name)
		} else if n != len(tools) && field.want {
			t.Errorf("%d of %d tools carry %s, which %s defines", n, len(tools), field.key, want.name)
		}
	}
	for _, key := range []string{"resultType", "ttlMs", "cacheScope"} {
		checkPresence(t, "tools/list", list, key, want.newest, want.name)
	}

	res := wire.result(t, "tools/call")
	checkPresence(t, "tools/call", res, "structuredContent", want.structured, want.name)
	checkPresence(t, "tools/call", res, "resultType", want.newest, want.name)
	var content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(res["content"], &content); err != nil || len(content) != 1 || content[0].Type != "text" {
		t.Fatalf("tools/call content = %s, want one text item", res["content"])
	}
	var env envelope
	if err := json.Unmarshal([]byte(content[0].Text), &env); err != nil || !env.Success {
		t.Errorf("text content is not a successful envelope: %.300s", content[0].Text)
	}
	// The call's provenance is in _meta, which every revision defines.
	var meta map[string]json.RawMessage
	if err := json.Unmarshal(res["_meta"], &meta); err != nil {
		t.Errorf("tools/call _meta = %s: %v", res["_meta"], err)
	}
	checkProvenance(t, meta[provenanceKey], "fs_list", content[0].Text)
	if sc, ok := res["structuredContent"]; ok && !jsonEqual(content[0].Text, string(sc)) {
		t.Error("structuredContent and the text content differ")
	}

	if want.newest {
		return // no initialize: the client discovered the server
	}
	init := wire.result(t, "initialize")
	var info map[string]json.RawMessage
	if err := json.Unmarshal(init["serverInfo"], &info); err != nil {
		t.Fatalf("initialize result has no serverInfo: %v", err)
	}
	checkPresence(t, "initialize serverInfo", info, "title", want.titles, want.name)
}

func countWith(items []map[string]json.RawMessage, key string) int {
	n := 0
	for _, it := range items {
		if _, ok := it[key]; ok {
			n++
		}
	}
	return n
}

func checkPresence(t *testing.T, where string, obj map[string]json.RawMessage, key string, want bool, rev string) {
	t.Helper()
	if _, got := obj[key]; got && !want {
		t.Errorf("%s carries %s, which %s does not define", where, key, rev)
	} else if !got && want {
		t.Errorf("%s lacks %s, which %s defines", where, key, rev)
	}
}

// wireLog keeps what an mcp.LoggingTransport wrote: one "write: " line per
// message the client sent, one "read: " line per message it received.
type wireLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (w *wireLog) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

// result returns the raw result of the client's last request of method.
func (w *wireLog) result(t *testing.T, method string) map[string]json.RawMessage {
	t.Helper()
	w.mu.Lock()
	log := w.buf.String()
	w.mu.Unlock()
	type message struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
	}
	var id string
	results := map[string]json.RawMessage{}
	sc := bufio.NewScanner(strings.NewReader(log))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		dir, body, _ := strings.Cut(sc.Text(), ": ")
		var m message
		if json.Unmarshal([]byte(body), &m) != nil || len(m.ID) == 0 {
			continue
		}
		switch {
		case dir == "write" && m.Method == method:
			id = string(m.ID)
		case dir == "read" && m.Result != nil:
			results[string(m.ID)] = m.Result
		}
	}
	raw, ok := results[id]
	if id == "" || !ok {
		t.Fatalf("no result of %s on the wire:\n%.3000s", method, log)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatalf("%s result is not an object: %v", method, err)
	}
	return obj
}

// recordingTransport logs each HTTP exchange to a wireLog as the
// LoggingTransport would: the request body as a "write: " line, each
// message of the answer (SSE data lines, or a JSON body) as a "read: " line.
type recordingTransport struct {
	next http.RoundTripper
	wire *wireLog
}

func (rt *recordingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		body, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(rt.wire, "write: %s\n", bytes.TrimSpace(body))
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := rt.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	resp.Body = &recordedBody{ReadCloser: resp.Body, wire: rt.wire, sse: strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")}
	return resp, nil
}

// recordedBody logs the messages of an answer as they are read, before
// the client acts on them: an SSE data line once its line ends, a JSON body
// once it is whole.
type recordedBody struct {
	io.ReadCloser
	wire *wireLog
	sse  bool
	buf  bytes.Buffer
}

func (b *recordedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.buf.Write(p[:n])
	if b.sse {
		for {
			line, rest, ok := bytes.Cut(b.buf.Bytes(), []byte("\n"))
			if !ok {
				break
			}
			if data, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
				fmt.Fprintf(b.wire, "read: %s\n", data)
			}
			b.buf = *bytes.NewBuffer(append([]byte(nil), rest...))
		}
	} else if body := bytes.TrimSpace(b.buf.Bytes()); len(body) > 0 && json.Valid(body) {
		fmt.Fprintf(b.wire, "read: %s\n", body)
		b.buf.Reset()
	}
	return n, err
}
