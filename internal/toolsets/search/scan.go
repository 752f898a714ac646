package search

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"regexp"
	"slices"
	"unicode/utf8"
)

// Bounds on what a hit carries, so one minified file cannot flood the answer.
const (
	maxShownLine = 300     // bytes of a line shown; longer lines are cut around the match
	maxScanLine  = 1 << 20 // bytes of a line matched in streaming mode
	wholeFileMax = 32 << 20
	binaryProbe  = 64 << 10 // a NUL in the first 64 KiB (rg's buffer) marks a binary file
)

// Hit is one matching line.
type Hit struct {
	Path        string `json:"path" jsonschema:"relative to the search root"`
	Line        int    `json:"line" jsonschema:"1-based line number"`
	Column      int    `json:"column" jsonschema:"1-based byte column of the first match"`
	Snippet     string `json:"snippet" jsonschema:"the context lines before, the matching line, the context lines after, joined by newlines; long lines cut with …"`
	SnippetLine int    `json:"snippet_line" jsonschema:"line number of the snippet's first line"`
}

// scanner finds matching lines of one file and builds their snippets.
type scanner struct {
	re  *regexp.Regexp
	ctx int
}

// wholeFile scans a file held in memory: the regexp runs over the whole
// buffer (fast), each candidate's line is then matched alone, so a match
// spanning lines (a class holding \n) never counts, and the search resumes
// at the next line so no matching line is skipped.
func (s *scanner) wholeFile(path string, buf []byte, emit func(Hit) bool) bool {
	pos, lineNo := 0, 0
	for pos < len(buf) {
		loc := s.re.FindIndex(buf[pos:])
		if loc == nil {
			return true
		}
		ms := pos + loc[0]
		ls := pos + bytes.LastIndexByte(buf[pos:ms], '\n') + 1
		le := len(buf)
		if i := bytes.IndexByte(buf[ms:], '\n'); i >= 0 {
			le = ms + i
		}
		lineNo += bytes.Count(buf[pos:ls], []byte{'\n'})
		line := buf[ls:le]
		if m := s.re.FindIndex(line); m != nil {
			before := linesBefore(nil, buf, ls, s.ctx)
			after := linesAfter(nil, buf, le, s.ctx)
			if !emit(s.hit(path, lineNo+1, line, m[0], before, after)) {
				return false
			}
		}
		pos, lineNo = le+1, lineNo+1
	}
	return true
}

// linesBefore appends to out the up to n lines before the line starting at
// ls, in order; out is the caller's scratch, the lines point into buf.
func linesBefore(out [][]byte, buf []byte, ls, n int) [][]byte {
	first := len(out)
	end := ls - 1 // the '\n' ending the previous line
	for k := 0; k < n && end >= 0; k++ {
		start := bytes.LastIndexByte(buf[:end], '\n') + 1
		out = append(out, buf[start:end])
		end = start - 1
	}
	slices.Reverse(out[first:])
	return out
}

// linesAfter appends to out the up to n lines after the line ending at le.
func linesAfter(out [][]byte, buf []byte, le, n int) [][]byte {
	start := le + 1
	for k := 0; k < n && start < len(buf); k++ {
		end := len(buf)
		if i := bytes.IndexByte(buf[start:], '\n'); i >= 0 {
			end = start + i
		}
		out = append(out, buf[start:end])
		start = end + 1
	}
	return out
}

// stream scans a file line by line from br, for files too large to hold
// and to check ripgrep's candidates: only the lines listed in wanted
// (1-based, increasing; nil: every line) are matched, and reading stops
// once the last of them has its context. Lines that are neither wanted
// nor context of a wanted line are skipped without being looked at one by
// one. br is the caller's, so that its buffer serves file after file.
func (s *scanner) stream(path string, br *bufio.Reader, wanted []int, emit func(Hit) bool) (bool, error) {
	var ring [][]byte
	type open struct {
		h     Hit
		line  []byte
		col   int
		bef   [][]byte
		after [][]byte
	}
	var pending []*open
	flush := func(force bool) bool {
		for len(pending) > 0 && (force || len(pending[0].after) >= s.ctx) {
			p := pending[0]
			pending = pending[1:]
			if !emit(s.hit(path, p.h.Line, p.line, p.col, p.bef, p.after)) {
				return false
			}
		}
		return true
	}
	next := 0 // wanted[next] is the first wanted line not yet passed
	for n := 1; ; n++ {
		for wanted != nil && next < len(wanted) && wanted[next] < n {
			next++
		}
		if wanted != nil && next == len(wanted) && len(pending) == 0 {
			break
		}
		if wanted != nil && len(pending) == 0 {
			// Up to the wanted line's context, nothing is kept.
			if skip := wanted[next] - s.ctx - n; skip > 0 {
				k, err := skipLines(br, skip)
				n += k
				ring = ring[:0]
				if err != nil {
					if err == io.EOF {
						break
					}
					return false, err
				}
			}
		}
		view, err := readView(br)
		if len(view) == 0 && err == io.EOF {
			break
		}
		if err != nil && err != io.EOF {
			return false, err
		}
		var line []byte // a copy, made only when kept
		keep := func() []byte {
			if line == nil {
				line = append([]byte{}, view...)
			}
			return line
		}
		for _, p := range pending {
			if len(p.after) < s.ctx {
				p.after = append(p.after, keep())
			}
		}
		isWanted := wanted == nil || next < len(wanted) && wanted[next] == n
		if isWanted {
			if m := s.re.FindIndex(view); m != nil {
				pending = append(pending, &open{h: Hit{Line: n}, line: keep(), col: m[0], bef: append([][]byte(nil), ring...)})
			}
		}
		if !flush(false) {
			return false, nil
		}
		if s.ctx > 0 {
			// Kept as context before a later wanted line only when one
			// is near enough to need it.
			after := next
			if isWanted && wanted != nil {
				after++
			}
			if wanted == nil || after < len(wanted) && wanted[after]-n <= s.ctx {
				ring = append(ring, keep())
				if len(ring) > s.ctx {
					ring = ring[1:]
				}
			} else {
				ring = ring[:0]
			}
		}
		if err == io.EOF {
			break
		}
	}
	return flush(true), nil
}

// skipLines consumes up to k lines, looking for line ends in br's buffer a
// block at a time rather than reading line by line, and returns how many
// it consumed: fewer at the end of the file (io.EOF, a last line without
// '\n' counted) or on a read error.
func skipLines(br *bufio.Reader, k int) (int, error) {
	done := 0
	partial := false // the bytes consumed last do not end a line
	for done < k {
		if br.Buffered() == 0 {
			if _, err := br.Peek(1); err != nil {
				if err == io.EOF && partial {
					done++
				}
				return done, err
			}
		}
		buf, _ := br.Peek(br.Buffered())
		i := 0
		for done < k {
			j := bytes.IndexByte(buf[i:], '\n')
			if j < 0 {
				i = len(buf)
				break
			}
			i += j + 1
			done++
		}
		partial = buf[i-1] != '\n'
		if _, err := br.Discard(i); err != nil {
			return done, err
		}
	}
	return done, nil
}

// readView reads one line without its terminator, at most maxScanLine bytes
// of it. The slice may point into br's buffer: it is valid until the next
// read.
func readView(br *bufio.Reader) ([]byte, error) {
	frag, err := br.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		return bytes.TrimSuffix(frag, []byte{'\n'}), err
	}
	buf := append([]byte{}, frag...)
	for errors.Is(err, bufio.ErrBufferFull) {
		frag, err = br.ReadSlice('\n')
		if room := maxScanLine - len(buf); room > 0 {
			buf = append(buf, frag[:min(room, len(frag))]...)
		}
	}
	return bytes.TrimSuffix(buf, []byte{'\n'}), err
}

func (s *scanner) hit(path string, line int, text []byte, col int, before, after [][]byte) Hit {
	return Hit{Path: path, Line: line, Column: col + 1, Snippet: snippet(before, text, col, after), SnippetLine: line - len(before)}
}

// cut shortens a line to maxShownLine bytes around byte offset at, on rune
// boundaries, marking what was dropped with "…"; invalid UTF-8 is replaced.
func cut(b []byte, at int) string {
	if len(b) <= maxShownLine {
		return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
	}
	from := max(0, at-maxShownLine/3)
	to := min(len(b), from+maxShownLine)
	for from > 0 && !utf8.RuneStart(b[from]) {
		from--
	}
	for to < len(b) && !utf8.RuneStart(b[to]) {
		to++
	}
	s := string(bytes.ToValidUTF8(b[from:to], []byte("\uFFFD")))
	if from > 0 {
		s = "…" + s
	}
	if to < len(b) {
		s += "…"
	}
	return s
}
