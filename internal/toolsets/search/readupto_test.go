package search

import (
	"bytes"
	"io"
	"testing"
)

// countingReader counts the reads made of it.
type countingReader struct {
	r     io.Reader
	reads int
}

func (c *countingReader) Read(p []byte) (int, error) {
	c.reads++
	return c.r.Read(p)
}

// readUpTo reads a file whose size statx gave in one read, and whatever
// size it was given, wrong or unknown, it returns the whole content: a file
// that grew, shrank or says 0 (procfs) is read to its end.
func TestReadUpToTrustsOnlyAnExactSize(t *testing.T) {
	data := bytes.Repeat([]byte("line of text\n"), 1000) // 13,000 bytes
	n := int64(len(data))
	for _, tc := range []struct {
		name      string
		size      int64
		reuse     []byte
		wantReads int
	}{
		{"exact", n, nil, 1},
		{"exact into a small reused buffer", n, make([]byte, 0, 100), 1},
		{"unknown", -1, nil, 2},
		{"grew since statx", n - 100, nil, 2},
		{"shrank since statx", n + 100, nil, 2},
		{"says 0", 0, nil, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cr := &countingReader{r: bytes.NewReader(data)}
			got, whole := readUpTo(cr, tc.reuse, 1<<20, tc.size)
			if !whole || !bytes.Equal(got, data) {
				t.Fatalf("whole %v, %d bytes, want the %d bytes whole", whole, len(got), len(data))
			}
			if cr.reads != tc.wantReads {
				t.Errorf("%d reads, want %d", cr.reads, tc.wantReads)
			}
		})
	}
	// Over the limit: not whole, whatever the size says.
	for _, size := range []int64{-1, n, 100} {
		got, whole := readUpTo(bytes.NewReader(data), nil, 1000, size)
		if whole || len(got) <= 1000 || !bytes.Equal(got, data[:len(got)]) {
			t.Errorf("size %d over a 1000-byte limit: whole %v after %d bytes", size, whole, len(got))
		}
	}
}
