package files

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// Bounds of one fs_read window.
const (
	maxLineBytes   = 16 << 10  // a longer line is cut, and said so
	contentBudget  = 192 << 10 // content per answer, as JSON; fewer lines beyond it
	exactCountSize = 32 << 20  // files up to this size get an exact total_lines
	scanBlock      = 256 << 10
)

// window is a run of lines read from a file.
type window struct {
	Start      int      // 0-based number of the first line
	Lines      []string // each with its line terminator, if it had one
	Total      int      // lines in the file
	Estimated  bool     // Total (and Start, for a tail) extrapolated from the bytes read
	CutLines   int      // lines longer than maxLineBytes, cut
	BadUTF8    int      // lines with invalid UTF-8, replaced
	ByteBudget bool     // stopped early to keep the answer within its budget
}

// readWindow reads up to limit lines starting at line offset (negative:
// that many lines before the end, like tail -n) from a file of size bytes,
// as many as take at most budget bytes as a JSON string: the answer must fit
// its output cap once escaped. A first line longer than that is cut.
// It streams: memory is bounded by the window, and time by the lines up to
// the window, except for files under exactCountSize whose remaining lines
// are counted for an exact total. A larger file's total is estimated from
// the average line length seen, so a window near the start of a huge file
// costs the same whatever its size.
func readWindow(ra io.ReaderAt, size int64, offset, limit, budget int) (window, error) {
	return readIndexedWindow(ra, size, nil, offset, limit, budget)
}

// readIndexedWindow is readWindow starting from idx's nearest mark before
// the window, when idx (built from this very version of the file) is not
// nil: the lines before the mark are not read, nor are those after the
// window counted. What idx says is checked against the bytes read (a mark
// starts a line, the file holds the lines idx counts): errStaleIndex when
// it does not, and the caller reads again without it.
func readIndexedWindow(ra io.ReaderAt, size int64, idx *lineIndex, offset, limit, budget int) (window, error) {
	var w window
	start := int64(0)
	line := 0
	if idx != nil {
		if offset < 0 {
			offset = max(0, idx.lines+offset)
		}
		m := idx.markBefore(offset)
		if m.off > 0 && (m.off >= size || lastByte(ra, m.off) != '\n') {
			return w, errStaleIndex
		}
		start, line = m.off, m.line
	}
	if offset < 0 {
		pos, found, err := tailStart(ra, size, -offset)
		if err != nil {
			return w, err
		}
		start = pos
		if !found {
			start = 0
		}
	}
	// What the read can use: the rest of the file, or from an index only
	// the bytes up to the mark after the window, where its lines end.
	span := size - start
	if idx != nil {
		if m, ok := idx.markAfter(offset + limit); ok && m.off > start {
			span = m.off - start
		}
	}
	br := bufio.NewReaderSize(io.NewSectionReader(ra, start, size-start), readBufferSize(span))
	consumed := start
	for offset > 0 && line < offset {
		n, err := skipLine(br)
		consumed += n
		if n > 0 {
			line++
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return w, err
		}
	}
	w.Start = line
	budget -= len(`""`)
	for len(w.Lines) < limit {
		s, n, cut, err := readLine(br)
		if n == 0 && err == io.EOF {
			break
		}
		if err != nil && err != io.EOF {
			return w, err
		}
		cost := tool.JSONStringLen(s) - len(`""`)
		if cost > budget && len(w.Lines) > 0 {
			w.ByteBudget = true
			break
		}
		if cost > budget { // the first line alone: cut it to what fits
			s, cut = s[:tool.FitJSONString(s, budget+len(`""`), false)], true
			cost = budget
		}
		consumed += n
		budget -= cost
		if cut {
			w.CutLines++
		}
		if !utf8.ValidString(s) {
			w.BadUTF8++
			s = string(bytes.ToValidUTF8([]byte(s), []byte("\uFFFD")))
		}
		w.Lines = append(w.Lines, s)
		if err == io.EOF {
			break
		}
	}
	seen := line + len(w.Lines)
	switch {
	case idx != nil:
		if seen > idx.lines || consumed >= size && seen != idx.lines {
			return w, errStaleIndex
		}
		w.Total = idx.lines
	case offset < 0:
		// Lines before start are not read: count them if cheap.
		if size <= exactCountSize || start == 0 {
			before, err := countLines(io.NewSectionReader(ra, 0, start), false)
			if err != nil {
				return w, err
			}
			w.Start = before
			rest, err := countLines(io.NewSectionReader(ra, start, size-start), size > start && lastByte(ra, size) != '\n')
			if err != nil {
				return w, err
			}
			w.Total = before + rest
		} else {
			rest, err := countLines(io.NewSectionReader(ra, start, size-start), lastByte(ra, size) != '\n')
			if err != nil {
				return w, err
			}
			avg := float64(size-start) / float64(max(rest, 1))
			w.Start = int(float64(start) / avg)
			w.Total = w.Start + rest
			w.Estimated = true
		}
	case consumed >= size:
		w.Total = seen
	case size <= exactCountSize:
		rest, err := countLines(io.NewSectionReader(ra, consumed, size-consumed), lastByte(ra, size) != '\n')
		if err != nil {
			return w, err
		}
		w.Total = seen + rest
	default:
		w.Total = seen + int(float64(size-consumed)/tailAverage(ra, size, consumed, seen)+0.5)
		w.Estimated = true
	}
	return w, nil
}

// readBufferSize is the read buffer for a read of at most n bytes: 64
// KiB, or n when less (bufio's floor is 16 bytes), so that a small read
// does not allocate, nor the collector clear, a buffer several times what
// it reads. A larger read still works, in more reads of the file.
func readBufferSize(n int64) int { return int(min(n, 64<<10)) }

// readLine returns one line with its terminator, cut to maxLineBytes, and
// the bytes it spanned in the file. A line that fits in the reader's
// buffer, nearly every one, is copied once, straight into its string.
func readLine(br *bufio.Reader) (string, int64, bool, error) {
	frag, err := br.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) && len(frag) <= maxLineBytes {
		return string(frag), int64(len(frag)), false, err
	}
	var buf []byte
	var n int64
	for {
		n += int64(len(frag))
		if room := maxLineBytes - len(buf); room > 0 {
			buf = append(buf, frag[:min(room, len(frag))]...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			break
		}
		frag, err = br.ReadSlice('\n')
	}
	cut := n > maxLineBytes
	if cut && bytes.HasSuffix(frag, []byte{'\n'}) {
		buf = append(buf, '\n') // a cut line is still a line
	}
	return string(buf), n, cut, err
}

// skipLine consumes one line without keeping it.
func skipLine(br *bufio.Reader) (int64, error) {
	var n int64
	for {
		frag, err := br.ReadSlice('\n')
		n += int64(len(frag))
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return n, err
	}
}

// countLines counts newlines, plus one for an unterminated last line when
// partialLast says the file ends without one.
func countLines(r io.Reader, partialLast bool) (int, error) {
	buf := make([]byte, scanBlock)
	n := 0
	for {
		k, err := r.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	if partialLast {
		n++
	}
	return n, nil
}

func lastByte(ra io.ReaderAt, size int64) byte {
	if size == 0 {
		return '\n'
	}
	var b [1]byte
	if _, err := ra.ReadAt(b[:], size-1); err != nil {
		return '\n'
	}
	return b[0]
}

// tailStart finds the byte offset of the n-th line from the end by reading
// backwards in blocks; found is false when the file has n lines or fewer.
func tailStart(ra io.ReaderAt, size int64, n int) (int64, bool, error) {
	end := size
	if lastByte(ra, size) == '\n' {
		end-- // the final terminator ends the last line; it does not start one
	}
	buf := make([]byte, scanBlock)
	seen := 0
	for end > 0 {
		from := max(0, end-int64(len(buf)))
		b := buf[:end-from]
		if _, err := ra.ReadAt(b, from); err != nil && err != io.EOF {
			return 0, false, err
		}
		for i := len(b) - 1; i >= 0; i-- {
			if b[i] == '\n' {
				seen++
				if seen == n {
					return from + int64(i) + 1, true, nil
				}
			}
		}
		end = from
	}
	return 0, false, nil
}

// tailAverage is the mean line length in the last block of the file, which
// stands for the unread rest better than the head does (line numbers,
// timestamps and IDs grow); the head's mean when the block has no newline.
func tailAverage(ra io.ReaderAt, size, consumed int64, seen int) float64 {
	from := max(consumed, size-scanBlock)
	buf := make([]byte, size-from)
	if _, err := ra.ReadAt(buf, from); err == nil || err == io.EOF {
		if n := bytes.Count(buf, []byte{'\n'}); n > 1 {
			first := bytes.IndexByte(buf, '\n')
			return float64(len(buf)-first-1) / float64(n-1)
		}
	}
	return float64(consumed) / float64(max(seen, 1))
}
