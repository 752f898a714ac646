package search

import (
	"bufio"
	"bytes"
	"io"
	"math/bits"
	"strings"
	"unicode/utf8"
)

// inMemoryMax is the size up to which a candidate file is checked from one
// read into a buffer the checking goroutine keeps (almost every source
// file); a larger one is streamed, so that neither a huge log nor a hit
// near its end makes a goroutine hold more than this. The buffer is handed
// on to the next search (bufPool), so it is kept small: at 1 MiB, the one
// file of 400 KB among a few-hit search's hundred in GOROOT/src grew it
// past what could be kept, and each search allocated it again.
const inMemoryMax = 256 << 10

// checkBufs are what checking a file needs besides the file, kept by a
// checking goroutine from file to file and handed on to the next search
// (bufPool): buf holds a file read whole, br streams a larger one and is
// made only when one comes.
type checkBufs struct {
	buf []byte
	br  *bufio.Reader
}

// checkFile checks the candidate lines rg reported in one open file: read
// whole into b.buf when it is at most inMemoryMax bytes, else streamed
// through b.br, the bytes already read first. size is the file's size when
// it was opened, or -1 when unknown (see readUpTo).
func (s *scanner) checkFile(path string, f io.Reader, size int64, lines []int, b *checkBufs, emit func(Hit) bool) {
	var whole bool
	b.buf, whole = readUpTo(f, b.buf[:0], inMemoryMax, size)
	if whole {
		s.checkLines(path, b.buf, lines, emit)
		return
	}
	if b.br == nil {
		b.br = bufio.NewReaderSize(nil, 64<<10)
	}
	b.br.Reset(io.MultiReader(bytes.NewReader(b.buf), f))
	_, _ = s.stream(path, b.br, lines, emit)
}

// readUpTo appends f's content to buf until the end of the file, or until
// more than limit bytes are held; whole says it reached the end. A read
// error ends the file where it stopped, as the stream does. size, when not
// -1, is what statx said of the file just opened: a read that leaves room
// in buf and brings the content to exactly that size is the end of the
// file, as the kernel reads a regular file (it fills the buffer unless the
// file ends), so the read that would return nothing is not made. A file
// that grew or shrank since, or a size of 0 (procfs, sysfs), is read to its
// end as before.
func readUpTo(f io.Reader, buf []byte, limit int, size int64) ([]byte, bool) {
	if want := int(size) + 1; size >= 0 && size < int64(limit) && cap(buf) < want {
		// A power of two: the next files, most of them no larger, fit.
		buf = make([]byte, 0, max(1<<bits.Len(uint(want)), 16<<10))
	}
	if cap(buf) == 0 {
		buf = make([]byte, 0, 16<<10)
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if len(buf) > limit {
			return buf, false
		}
		if err != nil || n > 0 && len(buf) < cap(buf) && int64(len(buf)) == size {
			return buf, true
		}
	}
}

// checkLines is stream for a file held in buf: each wanted line (1-based,
// increasing) is matched alone and, when it matches, its hit built with
// the context lines around it; lines are found by their ends, and only the
// hits are copied out of buf.
func (s *scanner) checkLines(path string, buf []byte, wanted []int, emit func(Hit) bool) bool {
	pos, n := 0, 1                       // buf[pos:] starts line n
	around := make([][]byte, 0, 2*s.ctx) // a hit's context lines, before then after
	for _, w := range wanted {
		if w > n {
			pos = skipInBuf(buf, pos, w-n)
			n = w
		}
		if pos >= len(buf) {
			return true // the file is shorter than rg saw it
		}
		le := len(buf)
		if i := bytes.IndexByte(buf[pos:], '\n'); i >= 0 {
			le = pos + i
		}
		if m := s.re.FindIndex(buf[pos:le]); m != nil {
			before := linesBefore(around[:0], buf, pos, s.ctx)
			after := linesAfter(before[len(before):], buf, le, s.ctx)
			if !emit(s.hit(path, w, buf[pos:le], m[0], before, after)) {
				return false
			}
		}
	}
	return true
}

// skipBlock is how many bytes skipInBuf counts line ends in at a time.
const skipBlock = 1024

// skipInBuf returns where the line k lines after the one at pos starts in
// buf, or len(buf) when there is none: whole blocks with fewer line ends
// than are left to skip are counted at once, and only the last block is
// looked at line by line.
func skipInBuf(buf []byte, pos, k int) int {
	for k > skipBlock/64 && pos+skipBlock <= len(buf) {
		c := bytes.Count(buf[pos:pos+skipBlock], []byte{'\n'})
		if c >= k {
			break
		}
		pos, k = pos+skipBlock, k-c
	}
	for ; k > 0; k-- {
		i := bytes.IndexByte(buf[pos:], '\n')
		if i < 0 {
			return len(buf)
		}
		pos += i + 1
	}
	return pos
}

// snippet joins a hit's lines with newlines, each cut to maxShownLine bytes
// (the matching line around col) with invalid UTF-8 replaced, in one
// allocation when no line needs cutting or mending.
func snippet(before [][]byte, line []byte, col int, after [][]byte) string {
	size := len(before) + len(after)
	for _, b := range before {
		size += len(b)
	}
	for _, a := range after {
		size += len(a)
	}
	size += len(line)
	var sb strings.Builder
	sb.Grow(size)
	for i, b := range before {
		if i > 0 {
			sb.WriteByte('\n')
		}
		writeShown(&sb, b, 0)
	}
	if len(before) > 0 {
		sb.WriteByte('\n')
	}
	writeShown(&sb, line, col)
	for _, a := range after {
		sb.WriteByte('\n')
		writeShown(&sb, a, 0)
	}
	return sb.String()
}

// writeShown writes one line of a snippet as cut shows it.
func writeShown(sb *strings.Builder, b []byte, at int) {
	if len(b) <= maxShownLine && utf8.Valid(b) {
		sb.Write(b)
		return
	}
	sb.WriteString(cut(b, at))
}
