package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"unicode/utf8"
)

// Unit is what ReadHandle's offset and limit count.
type Unit string

// The units of ReadHandle.
const (
	Lines Unit = "lines"
	Bytes Unit = "bytes"
)

// Window limits of ReadHandle. A limit of zero or less means the default;
// a larger one is cut to the maximum. A lines window is also cut at
// MaxByteLimit bytes, so a few enormous lines cannot flood a client.
const (
	DefaultLineLimit = 200
	MaxLineLimit     = 2000
	DefaultByteLimit = 64 << 10
	MaxByteLimit     = 1 << 20
)

// ErrOffsetOutOfRange reports an offset past the end of a payload. An
// offset equal to Total is allowed and reads nothing.
var ErrOffsetOutOfRange = errors.New("offset out of range")

// Window is the part of a payload ReadWindow reads.
type Window struct {
	Offset int64 // first line (0-based) or byte
	Limit  int64 // lines or bytes; zero or less means the default
	Unit   Unit
	// MaxBytes bounds the content in bytes (at most, and by default,
	// MaxByteLimit): a bytes window is shortened to it, a lines window stops
	// before the line that would pass it, and a first line longer than it
	// is cut (Slice.Truncated).
	MaxBytes int64
}

// Slice is one window of a handle's payload.
type Slice struct {
	Handle     Handle
	Unit       Unit
	Offset     int64  // first line (0-based) or byte of the window
	Start      int64  // byte offset of Content in the payload
	Returned   int64  // lines or bytes in Content
	Total      int64  // lines or bytes in the whole payload
	Content    string // the window; whole lines, or bytes cut at a rune boundary
	HasMore    bool   // NextOffset < Total
	NextOffset int64  // the Offset of the next window
	// Truncated is set when a lines window holds a single line longer than
	// the window's MaxBytes: Content is that line's first bytes (read the
	// rest by bytes from Start+len(Content)), and NextOffset moves on to the
	// next line.
	Truncated bool
}

// ReadHandle returns a window of a handle's payload of at most MaxByteLimit
// bytes; see ReadWindow.
func (s *Store) ReadHandle(ctx context.Context, id string, offset, limit int64, unit Unit) (Slice, error) {
	return s.ReadWindow(ctx, id, Window{Offset: offset, Limit: limit, Unit: unit})
}

// ReadWindow returns a window of a handle's payload. By lines, offset is a
// 0-based line number and the content keeps each line's terminator. By
// bytes, the window never ends inside a UTF-8 sequence: it is shortened to
// the last whole rune, and Returned and NextOffset say where it ended.
func (s *Store) ReadWindow(ctx context.Context, id string, w Window) (Slice, error) {
	offset, limit, unit := w.Offset, w.Limit, w.Unit
	maxBytes := int64(MaxByteLimit)
	if w.MaxBytes > 0 {
		maxBytes = min(w.MaxBytes, maxBytes)
	}
	if unit != Lines && unit != Bytes {
		return Slice{}, fmt.Errorf("reading a handle: unit must be %q or %q, not %q", Lines, Bytes, unit)
	}
	if offset < 0 {
		return Slice{}, fmt.Errorf("reading a handle: offset %d is negative; offsets count from 0", offset)
	}
	if !validID(id) {
		return Slice{}, errMalformed(id)
	}
	if err := s.pending.wait(ctx, id); err != nil {
		return Slice{}, err
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return Slice{}, fmt.Errorf("reading handle %s: %w", id, err)
	}
	defer tx.Rollback()
	h, l, err := s.lookup(ctx, tx, id)
	if err != nil {
		return Slice{}, err
	}
	p := &payload{tx: tx, id: id, size: h.Size, chunk: l.chunk}
	sl := Slice{Handle: h, Unit: unit, Offset: offset, Total: h.Size}
	if unit == Lines {
		sl.Total = h.Lines
	}
	if offset > sl.Total {
		return Slice{}, fmt.Errorf("reading handle %s: offset %d is past the end (%d %s): %w", id, offset, sl.Total, unit, ErrOffsetOutOfRange)
	}
	var content []byte
	switch {
	case offset == sl.Total: // the end: nothing to read, and not an error
		sl.Start = h.Size
	case unit == Bytes:
		sl.Start = offset
		content, err = readBytes(ctx, p, offset, min(clampLimit(limit, DefaultByteLimit, MaxByteLimit), maxBytes))
		sl.Returned = int64(len(content))
	default:
		content, sl.Start, sl.Returned, sl.Truncated, err = readLines(ctx, p, l.index, offset, clampLimit(limit, DefaultLineLimit, MaxLineLimit), maxBytes)
	}
	if err != nil {
		return Slice{}, err
	}
	sl.Content = string(content)
	sl.NextOffset = offset + sl.Returned
	sl.HasMore = sl.NextOffset < sl.Total
	return sl, nil
}

func clampLimit(limit, def, most int64) int64 {
	if limit <= 0 {
		return def
	}
	return min(limit, most)
}

// readBytes reads up to limit bytes from offset, ending on a rune boundary.
// When the window is too small to hold even the first rune, it returns
// that rune whole, so that paging always moves forward.
func readBytes(ctx context.Context, p *payload, offset, limit int64) ([]byte, error) {
	end := min(offset+limit, p.size)
	b, err := p.readRange(ctx, offset, end)
	if err != nil || end == p.size {
		return b, err
	}
	if n := runeCut(b); n > 0 {
		return b[:n], nil
	}
	b, err = p.readRange(ctx, offset, min(offset+utf8.UTFMax, p.size))
	if err != nil {
		return nil, err
	}
	_, w := utf8.DecodeRune(b)
	return b[:w], nil
}

// runeCut returns the length of b without a trailing incomplete UTF-8
// sequence. Bytes that are not UTF-8 at all are left alone: only the
// start of a multi-byte sequence cut short by the window is dropped.
func runeCut(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if utf8.FullRune(b[i:]) {
				return len(b)
			}
			return i
		}
	}
	return len(b)
}

// readLines reads up to limit lines from line offset, keeping the content
// within maxBytes bytes. It also returns where the content starts.
func readLines(ctx context.Context, p *payload, index []byte, offset, limit, maxBytes int64) ([]byte, int64, int64, bool, error) {
	k := offset / lineStride
	pos, err := lineCheckpoint(index, k)
	if err != nil {
		return nil, 0, 0, false, fmt.Errorf("reading handle %s: %w", p.id, err)
	}
	sp, err := findLines(ctx, p, pos, k*lineStride, offset, limit, maxBytes)
	if err != nil {
		return nil, 0, 0, false, err
	}
	b, err := p.readRange(ctx, sp.start, sp.end)
	if err != nil {
		return nil, 0, 0, false, err
	}
	if sp.cut {
		b = b[:runeCut(b)]
	}
	return b, sp.start, sp.n, sp.cut, nil
}

// lineSpan is where a window of lines lies in the payload.
type lineSpan struct {
	start, end int64 // bytes [start, end)
	n          int64 // lines in it
	cut        bool  // a single line longer than maxBytes, cut at maxBytes
}

// findLines scans from byte pos, where line `line` starts, to find the
// bytes of lines [first, first+limit), stopping before the span would pass
// maxBytes. It reads chunks in order and never more than maxBytes beyond
// the start of the window.
func findLines(ctx context.Context, p *payload, pos, line, first, limit, maxBytes int64) (lineSpan, error) {
	sp := lineSpan{start: -1}
	if line == first {
		sp.start, sp.end = pos, pos
	}
	it := p.iterFrom(pos)
	for {
		c, ok, err := it.next(ctx)
		if err != nil {
			return lineSpan{}, err
		}
		if !ok {
			break
		}
		for i := max(pos-c.base, 0); ; {
			j := bytes.IndexByte(c.data[i:], '\n')
			if j < 0 {
				break
			}
			lineEnd := c.base + i + int64(j) + 1
			i += int64(j) + 1
			if sp.start < 0 {
				if line++; line == first {
					sp.start, sp.end = lineEnd, lineEnd
				}
				continue
			}
			if sp.addLine(lineEnd, maxBytes) || sp.n == limit {
				return sp, nil
			}
		}
		// The line in progress already makes the window too long.
		if sp.start >= 0 && c.base+int64(len(c.data))-sp.start > maxBytes {
			sp.addLine(c.base+int64(len(c.data)), maxBytes)
			return sp, nil
		}
	}
	if sp.start < 0 {
		return lineSpan{}, fmt.Errorf("reading handle %s: line %d not found; the line index is damaged", p.id, first)
	}
	if sp.end < p.size { // a last line without '\n'
		sp.addLine(p.size, maxBytes)
	}
	return sp, nil
}

// addLine extends the span to a line ending at lineEnd, unless that would
// pass maxBytes: then it reports full, and a span still empty takes the
// first maxBytes of the line as a cut line.
func (sp *lineSpan) addLine(lineEnd, maxBytes int64) (full bool) {
	if lineEnd-sp.start <= maxBytes {
		sp.end = lineEnd
		sp.n++
		return false
	}
	if sp.n == 0 {
		sp.end, sp.n, sp.cut = sp.start+maxBytes, 1, true
	}
	return true
}
