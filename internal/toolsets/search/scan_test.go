package search

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// scanText is lines of varied lengths, some of them matching `hit\d`,
// some longer than a small reader's buffer, ending without a newline when
// asked.
func scanText(n int, lastNewline bool) []byte {
	var b bytes.Buffer
	for i := range n {
		switch {
		case i%97 == 5:
			fmt.Fprintf(&b, "%s hit%d", strings.Repeat("w", 700), i%10)
		case i%7 == 3 || i%50 == 49 || i%50 == 48:
			fmt.Fprintf(&b, "line %d hit%d", i, i%10)
		case i%11 == 0: // empty
		default:
			fmt.Fprintf(&b, "line %d %s", i, strings.Repeat("x", i*31%90))
		}
		b.WriteByte('\n')
	}
	if !lastNewline {
		b.Truncate(b.Len() - 1)
	}
	return b.Bytes()
}

// Checking rg's candidates line by line gives the hits a scan of the whole
// file gives, context included, for every candidate line or some of them,
// whatever the reader's buffer size; a candidate that does not match is
// dropped.
func TestStreamCandidatesMatchWholeFile(t *testing.T) {
	for _, lastNewline := range []bool{true, false} {
		data := scanText(3000, lastNewline)
		for ctx := range 4 {
			sc := &scanner{re: regexp.MustCompile(`hit\d`), ctx: ctx}
			var all []Hit
			sc.wholeFile("f", data, func(h Hit) bool { all = append(all, h); return true })
			if len(all) < 500 {
				t.Fatalf("only %d hits", len(all))
			}
			var every, some []int
			var want []Hit
			for i, h := range all {
				every = append(every, h.Line)
				if i%3 == 0 {
					some = append(some, h.Line)
					want = append(want, h)
				}
			}
			some = append(some, 2) // a candidate that does not match
			slices.Sort(some)
			for _, size := range []int{16, 256, 64 << 10} {
				for _, tc := range []struct {
					lines []int
					want  []Hit
				}{{every, all}, {some, want}, {nil, all}} {
					var got []Hit
					_, err := sc.stream("f", bufio.NewReaderSize(bytes.NewReader(data), size), tc.lines, func(h Hit) bool { got = append(got, h); return true })
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got, tc.want) {
						t.Fatalf("newline %v ctx %d buffer %d: %d candidates gave %d hits, want %d", lastNewline, ctx, size, len(tc.lines), len(got), len(tc.want))
					}
				}
			}
		}
	}
}

// skipLines consumes exactly the lines asked, across buffer refills and
// lines longer than the buffer, and counts an unterminated last line.
func TestSkipLines(t *testing.T) {
	data := scanText(500, false)
	lines := strings.SplitAfter(string(data), "\n")
	for _, size := range []int{16, 100, 4096} {
		for _, k := range []int{0, 1, 5, 96, 97, 250, 499} {
			br := bufio.NewReaderSize(bytes.NewReader(data), size)
			n, err := skipLines(br, k)
			if n != k || err != nil {
				t.Fatalf("buffer %d: skipping %d lines skipped %d: %v", size, k, n, err)
			}
			rest, _ := io.ReadAll(br)
			if want := strings.Join(lines[k:], ""); string(rest) != want {
				t.Fatalf("buffer %d: after %d lines, %.40q is left, want %.40q", size, k, rest, want)
			}
		}
		n, err := skipLines(bufio.NewReaderSize(bytes.NewReader(data), size), 1000)
		if n != 500 || err != io.EOF {
			t.Errorf("buffer %d: past the end skipped %d: %v; want 500, EOF", size, n, err)
		}
	}
}
