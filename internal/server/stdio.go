package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"regexp"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves MCP over newline-delimited JSON on in and out until the
// client closes in or ctx ends. A message over maxMessage bytes is dropped
// without being buffered whole and answered with a JSON-RPC error, so one
// oversized request costs bounded memory and does not end the session.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer, maxMessage int) error {
	w := &lockedWriter{w: out}
	g := &frameGuard{src: bufio.NewReaderSize(in, 64*1024), max: maxMessage, out: w}
	t := &mcp.IOTransport{Reader: io.NopCloser(g), Writer: w, MaxLineLength: maxMessage + 1}
	return s.mcp.Run(ctx, t)
}

// lockedWriter serialises whole-message writes from the SDK and the guard.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// frameGuard passes complete lines of at most max bytes to the decoder.
type frameGuard struct {
	src     *bufio.Reader
	max     int
	out     io.Writer
	pending []byte
	err     error
}

func (g *frameGuard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		if g.err != nil {
			return 0, g.err
		}
		g.pending, g.err = g.nextLine()
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// nextLine returns the next line that fits, answering and skipping any that
// do not.
func (g *frameGuard) nextLine() ([]byte, error) {
	var buf []byte
	for {
		chunk, err := g.src.ReadSlice('\n')
		if len(buf)+len(chunk) > g.max {
			head := append(buf, chunk[:min(len(chunk), 512)]...)
			total := len(buf) + len(chunk)
			for err == bufio.ErrBufferFull {
				chunk, err = g.src.ReadSlice('\n')
				total += len(chunk)
			}
			g.reject(head, total)
			if err != nil {
				return nil, err
			}
			buf = buf[:0]
			continue
		}
		buf = append(buf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		return buf, err
	}
}

var leadingID = regexp.MustCompile(`"id"\s*:\s*(-?\d{1,18}|"[^"\\]{0,128}")`)

// reject answers an oversized message with an Invalid Request error, under
// the request's id when it can be read from the message's start (so the
// client's pending call fails instead of hanging).
func (g *frameGuard) reject(head []byte, size int) {
	id := "null"
	if m := leadingID.FindSubmatch(head); m != nil {
		id = string(m[1])
	}
	msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,"message":"message of %d bytes is over the limit of %d bytes; send smaller arguments (write large content in parts with mode append)"}}`+"\n",
		id, size, g.max)
	_, _ = io.WriteString(g.out, msg)
}
