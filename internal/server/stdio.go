package server

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// ServeStdio serves MCP over newline-delimited JSON on in and out until the
// client closes in or ctx ends. Each line is one message, judged before the
// SDK reads it: the SDK ends the session on the first line it cannot read,
// so a line that is not a JSON-RPC 2.0 message gets an error reply here and
// the session goes on. A message over maxMessage bytes is never held whole:
// it is scanned as it streams past and answered under its own id.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer, maxMessage int) error {
	return serveStdio(ctx, s.mcp, stdioTransport(in, out, maxMessage))
}

// serveStdio runs srv on t, whose connection writes the tools/call results
// that encode themselves for it (selfencoded.go).
func serveStdio(ctx context.Context, srv *mcp.Server, t *rawResponseTransport) error {
	return srv.Run(withEncodedResults(ctx, t.encoded), t)
}

// stdioTransport is the SDK's stdio transport reading through a frameGuard.
// The SDK's own frame limit stays as a second bound: a message handed on
// is at most maxMessage bytes and a newline. The responses to requests the
// client cancelled are not written; the others are written without a
// second encoding (rawResponseTransport), a tools/call result as it
// encoded itself for a context marked with the transport's encoded
// (ServeStdio).
func stdioTransport(in io.Reader, out io.Writer, maxMessage int) *rawResponseTransport {
	cancelled := &cancelledCalls{}
	w := &lockedWriter{w: out, cancelled: cancelled}
	g := newFrameGuard(bufio.NewReaderSize(in, 64<<10), maxMessage, w)
	g.cancelled = cancelled
	return &rawResponseTransport{inner: &mcp.IOTransport{Reader: io.NopCloser(g), Writer: w, MaxLineLength: maxMessage + 1}, out: w,
		encoded: &encodedResults{}}
}

// lockedWriter serialises whole-message writes from the SDK and the guard,
// leaving out the responses to cancelled requests.
type lockedWriter struct {
	mu        sync.Mutex
	w         io.Writer
	cancelled *cancelledCalls
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	if l.cancelled.drop(p) {
		return len(p), nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// keepLineBytes is the largest line buffer kept for the next line; a
// larger one, left by a rare big message, goes back to the collector.
const keepLineBytes = 1 << 20

// frameGuard reads src one line at a time and hands on only the lines that
// are JSON-RPC 2.0 messages of at most max bytes, each trimmed of
// surrounding whitespace and ended by a newline; it answers every other
// non-blank line on out with one JSON-RPC error.
type frameGuard struct {
	src     *bufio.Reader
	max     int
	out     io.Writer
	scan    *jsonScanner
	line    []byte // the current line, while it fits within max
	pending []byte // what is left of the line being handed on
	err     error
	// cancelled learns of the requests and cancellations handed on; nil
	// tracks nothing.
	cancelled *cancelledCalls
}

func newFrameGuard(src *bufio.Reader, max int, out io.Writer) *frameGuard {
	return &frameGuard{src: src, max: max, out: out, scan: newMessageScanner()}
}

func (g *frameGuard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		if g.err != nil {
			return 0, g.err
		}
		g.pending, g.err = g.next()
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// next reads lines until one is handed on, answering each refused one, and
// returns it with the read error that ended the input, if any.
func (g *frameGuard) next() ([]byte, error) {
	for {
		size, err := g.readLine()
		if !g.scan.blank() {
			v := g.judge(size)
			if v.pass {
				g.track()
				return g.handOn(), err
			}
			g.reply(v)
		}
		if err != nil {
			return nil, err
		}
	}
}

// readLine scans the next line, keeping it in g.line while it fits within
// max, and returns its length without the newline.
func (g *frameGuard) readLine() (int, error) {
	g.scan.reset()
	if cap(g.line) > keepLineBytes {
		g.line = nil
	}
	g.line = g.line[:0]
	size := 0
	for {
		chunk, err := g.src.ReadSlice('\n')
		body := chunk
		if err == nil {
			body = chunk[:len(chunk)-1]
		}
		g.scan.feed(body)
		if size += len(body); size <= g.max {
			g.line = append(g.line, chunk...)
		}
		if err != bufio.ErrBufferFull {
			g.scan.finish()
			return size, err
		}
	}
}

func (g *frameGuard) judge(size int) verdict {
	if size > g.max {
		return refuse(jsonrpc.CodeInvalidRequest, replyID(g.scan),
			"message of %d bytes is over the limit of %d bytes; send smaller arguments (write large content in parts with mode append)", size, g.max)
	}
	return judge(g.scan, g.line)
}

// handOn returns the scanned value of the current line, ended by a newline:
// the SDK's reader fails on anything after a value but a line end.
func (g *frameGuard) handOn() []byte {
	from, end := g.scan.topAt, g.scan.topEnd
	if end < len(g.line) {
		g.line[end] = '\n' // whitespace or the newline itself
		return g.line[from : end+1]
	}
	return append(g.line[from:end], '\n')
}

// track tells cancelled of the message about to be handed on: the id of a
// request, or the request a notifications/cancelled names.
func (g *frameGuard) track() {
	m := &g.scan.members
	if g.cancelled == nil || m[memMethod].count == 0 {
		return // nothing to track, or a response to a request of the server's
	}
	if m[memID].count == 1 {
		g.cancelled.began(g.line[m[memID].start:m[memID].end])
		return
	}
	if m[memParams].count == 1 && isString(g.line, m[memMethod], "notifications/cancelled") {
		g.cancelled.cancel(g.line[m[memParams].start:m[memParams].end])
	}
}

// errorReply is a JSON-RPC error response; its id is raw so that it is
// sent back exactly as the client wrote it, or as null.
type errorReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   jsonrpc.Error   `json:"error"`
}

func (g *frameGuard) reply(v verdict) {
	id := json.RawMessage("null")
	if v.id != nil {
		id = v.id
	}
	b, err := tool.MarshalJSON(errorReply{JSONRPC: "2.0", ID: id, Error: jsonrpc.Error{Code: v.code, Message: v.why}})
	if err != nil {
		return // the id was checked as JSON and the rest is ours: unreachable
	}
	_, _ = g.out.Write(append(b, '\n'))
}
