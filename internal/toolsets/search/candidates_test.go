package search

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// Checking rg's candidates in a file held in memory gives the hits a scan
// of the whole file gives, context included, for every candidate line or
// some of them; a candidate that does not match, or that lies past the end
// of the file (which shrank after rg read it), gives none. A file over
// inMemoryMax is streamed and gives the same.
func TestCheckFileMatchesWholeFile(t *testing.T) {
	for _, lastNewline := range []bool{true, false} {
		small := scanText(3000, lastNewline)
		big := bytes.Repeat(small, inMemoryMax/len(small)+1)
		for _, data := range [][]byte{small, big} {
			for ctx := range 4 {
				sc := &scanner{re: regexp.MustCompile(`hit\d`), ctx: ctx}
				var all []Hit
				sc.wholeFile("f", data, func(h Hit) bool { all = append(all, h); return true })
				var every, some []int
				var want []Hit
				for i, h := range all {
					every = append(every, h.Line)
					if i%3 == 0 {
						some = append(some, h.Line)
						want = append(want, h)
					}
				}
				some = append(some, 2, 1_000_000) // no match; past the end
				slices.Sort(some)
				bufs := checkBufs{br: bufio.NewReaderSize(nil, 256)}
				if ctx == 0 {
					bufs = checkBufs{} // the stream's reader made when first needed
				}
				for _, tc := range []struct {
					lines []int
					want  []Hit
				}{{every, all}, {some, want}} {
					var got []Hit
					// One byte a read: the buffer grows across many reads.
					sc.checkFile("f", iotest.OneByteReader(bytes.NewReader(data)), -1, tc.lines, &bufs, func(h Hit) bool { got = append(got, h); return true })
					if !slices.Equal(got, tc.want) {
						t.Fatalf("size %d newline %v ctx %d: %d candidates gave %d hits, want %d", len(data), lastNewline, ctx, len(tc.lines), len(got), len(tc.want))
					}
				}
			}
		}
	}
}

// A snippet is its lines joined by newlines, each as cut shows it: long
// lines shortened around the match, invalid UTF-8 replaced.
func TestSnippetIsCutLinesJoined(t *testing.T) {
	long := strings.Repeat("é", 400) + "needle" + strings.Repeat("x", 400)
	lines := [][]byte{[]byte("plain"), []byte("bad \xff\xfe utf8"), []byte(long), []byte(""), []byte("crlf\r"), []byte(strings.Repeat("y", maxShownLine)), []byte(strings.Repeat("z", maxShownLine+1))}
	for i := range lines {
		for nb := 0; nb <= i; nb++ {
			for na := 0; i+1+na <= len(lines); na++ {
				before, line, after := lines[i-nb:i], lines[i], lines[i+1:i+1+na]
				col := max(0, bytes.Index(line, []byte("needle")))
				var parts []string
				for _, b := range before {
					parts = append(parts, cut(b, 0))
				}
				parts = append(parts, cut(line, col))
				for _, a := range after {
					parts = append(parts, cut(a, 0))
				}
				if got, want := snippet(before, line, col, after), strings.Join(parts, "\n"); got != want {
					t.Fatalf("%s: got %q, want %q", fmt.Sprint(i, nb, na), got, want)
				}
			}
		}
	}
}

// skipInBuf lands where skipping line by line lands, across blocks, short
// lines and long ones, and at the end when there are too few lines.
func TestSkipInBuf(t *testing.T) {
	data := scanText(2000, false)
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	for _, from := range []int{0, 1, 17, 500} {
		for _, k := range []int{0, 1, 16, 17, 40, 300, 1999 - from, 1999 - from + 1, 5000} {
			want := len(data)
			if from+k < len(starts) {
				want = starts[from+k]
			}
			if got := skipInBuf(data, starts[from], k); got != want {
				t.Errorf("from line %d skipping %d: at %d, want %d", from, k, got, want)
			}
		}
	}
}
