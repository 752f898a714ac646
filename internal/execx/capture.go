package execx

import (
	"bytes"
	"sync"
)

// DefaultMaxOutput is how many bytes of each stream a command keeps when
// Cmd.MaxOutput is not set.
const DefaultMaxOutput = 1 << 20

// MaxLine is the longest line OnStdoutLine receives. A longer line arrives
// in pieces of MaxLine bytes, so a child that never writes a line's end
// cannot make the line buffer grow without bound. It matches
// bufio.Scanner's default token limit.
const MaxLine = 64 << 10

// lineEnd is the byte that ends one of OnStdoutLine's lines.
func lineEnd(nul bool) byte {
	if nul {
		return 0
	}
	return '\n'
}

// capture is the writer behind a child's stdout or stderr. It keeps the
// first max bytes, counts everything, and never refuses a write: the child
// must keep running (and the pipe keep draining) even once the cap is hit,
// or it would block on a full pipe and look hung.
type capture struct {
	mu        sync.Mutex
	max       int
	buf       []byte
	total     int64
	truncated bool
	onLine    func([]byte)
	end       byte   // the byte that ends a line: '\n', or 0 for NUL-ended records
	line      []byte // a pending partial line, at most MaxLine bytes
}

func newCapture(max int, onLine func([]byte), end byte) *capture {
	if max <= 0 {
		max = DefaultMaxOutput
	}
	return &capture{max: max, onLine: onLine, end: end}
}

// Write keeps what fits under the cap and passes complete lines on.
func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total += int64(len(p))
	keep := min(c.max-len(c.buf), len(p))
	if keep < len(p) {
		c.truncated = true
	}
	if keep > 0 {
		if cap(c.buf)-len(c.buf) < keep {
			// Grow by hand: append's doubling could reserve up to twice the cap.
			grown := make([]byte, len(c.buf), min(c.max, max(2*cap(c.buf), len(c.buf)+keep)))
			copy(grown, c.buf)
			c.buf = grown
		}
		c.buf = append(c.buf, p[:keep]...)
	}
	if c.onLine != nil {
		c.lines(p)
	}
	return len(p), nil
}

// lines splits p at each line's end, joining it to the pending partial
// line.
func (c *capture) lines(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, c.end)
		if i < 0 {
			c.pend(p)
			return
		}
		if len(c.line) == 0 && i <= MaxLine {
			c.onLine(p[:i])
		} else {
			c.pend(p[:i])
			c.flushLine()
		}
		p = p[i+1:]
	}
}

// pend adds p to the partial line, handing out MaxLine-sized pieces.
func (c *capture) pend(p []byte) {
	for len(c.line)+len(p) > MaxLine {
		n := MaxLine - len(c.line)
		c.line = append(c.line, p[:n]...)
		c.flushLine()
		p = p[n:]
	}
	c.line = append(c.line, p...)
}

// flushLine hands out the pending line, if any. An empty buffer means
// nothing pends: empty lines never pend, lines delivers them directly.
func (c *capture) flushLine() {
	if len(c.line) > 0 {
		c.onLine(c.line)
		c.line = c.line[:0]
	}
}

// finish delivers a last line that had no end; called once the stream has
// ended.
func (c *capture) finish() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.onLine != nil {
		c.flushLine()
	}
}

// result returns what was kept, whether anything was dropped, and the total.
func (c *capture) result() ([]byte, bool, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf, c.truncated, c.total
}
