package files

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func numbered(n int, lastNewline bool) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	if !lastNewline && n > 0 {
		b.Truncate(b.Len() - 1)
	}
	return b.Bytes()
}

func TestReadWindow(t *testing.T) {
	tests := []struct {
		name          string
		data          []byte
		offset, limit int
		start, total  int
		first, last   string
		n             int
	}{
		{"head", numbered(10, true), 0, 3, 0, 10, "line 0\n", "line 2\n", 3},
		{"middle", numbered(10, true), 4, 2, 4, 10, "line 4\n", "line 5\n", 2},
		{"past the end", numbered(10, true), 20, 5, 10, 10, "", "", 0},
		{"tail", numbered(10, true), -3, 200, 7, 10, "line 7\n", "line 9\n", 3},
		{"tail without final newline", numbered(10, false), -2, 200, 8, 10, "line 8\n", "line 9", 2},
		{"tail longer than the file", numbered(4, true), -100, 200, 0, 4, "line 0\n", "line 3\n", 4},
		{"tail window limited", numbered(10, true), -5, 2, 5, 10, "line 5\n", "line 6\n", 2},
		{"empty", nil, 0, 10, 0, 0, "", "", 0},
		{"one unterminated line", []byte("x"), 0, 10, 0, 1, "x", "x", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, err := readWindow(bytes.NewReader(tc.data), int64(len(tc.data)), tc.offset, tc.limit, contentBudget)
			if err != nil {
				t.Fatal(err)
			}
			if w.Start != tc.start || w.Total != tc.total || len(w.Lines) != tc.n || w.Estimated {
				t.Fatalf("start %d total %d lines %d est %v; want %d %d %d", w.Start, w.Total, len(w.Lines), w.Estimated, tc.start, tc.total, tc.n)
			}
			if tc.n > 0 && (w.Lines[0] != tc.first || w.Lines[len(w.Lines)-1] != tc.last) {
				t.Errorf("lines %q", w.Lines)
			}
		})
	}
}

func TestReadWindowLongAndInvalidLines(t *testing.T) {
	data := []byte(strings.Repeat("x", 3*maxLineBytes) + "\nok \xff\n")
	w, err := readWindow(bytes.NewReader(data), int64(len(data)), 0, 10, contentBudget)
	if err != nil {
		t.Fatal(err)
	}
	if w.CutLines != 1 || w.BadUTF8 != 1 || len(w.Lines) != 2 || len(w.Lines[0]) != maxLineBytes+1 || w.Lines[1] != "ok \uFFFD\n" {
		t.Errorf("cut %d bad %d lines %d len0 %d %q", w.CutLines, w.BadUTF8, len(w.Lines), len(w.Lines[0]), w.Lines[len(w.Lines)-1])
	}
}

// A file over exactCountSize is not counted to its end: the total is
// estimated, and a window near the start reads only what it needs.
func TestReadWindowHugeEstimates(t *testing.T) {
	data := numbered(3_000_000, true) // ~36 MiB
	r := &countingReader{r: bytes.NewReader(data)}
	w, err := readWindow(r, int64(len(data)), 1000, 100, contentBudget)
	if err != nil {
		t.Fatal(err)
	}
	if w.Start != 1000 || w.Lines[0] != "line 1000\n" || !w.Estimated {
		t.Fatalf("start %d first %q estimated %v", w.Start, w.Lines[0], w.Estimated)
	}
	if w.Total < 2_700_000 || w.Total > 3_300_000 {
		t.Errorf("estimate %d is off by more than 10%%", w.Total)
	}
	if r.n > 1<<20 {
		t.Errorf("read %d bytes for a window at line 1000", r.n)
	}
	tail, err := readWindow(r, int64(len(data)), -2, 10, contentBudget)
	if err != nil || tail.Lines[1] != "line 2999999\n" {
		t.Fatalf("tail: %v %q", err, tail.Lines)
	}
}

type countingReader struct {
	r *bytes.Reader
	n int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	k, err := c.r.ReadAt(p, off)
	c.n += int64(k)
	return k, err
}
