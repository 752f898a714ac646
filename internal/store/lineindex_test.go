package store

import (
	"bytes"
	"context"
	"math/rand"
	"testing"
)

// naiveLines splits payload the slow, obvious way, for comparison.
func naiveLines(payload []byte) [][]byte {
	parts := bytes.SplitAfter(payload, []byte("\n"))
	if len(parts[len(parts)-1]) == 0 {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// randomPayload makes lines of random length with LF or CRLF endings,
// sometimes without a final newline. long makes some lines span chunks.
func randomPayload(r *rand.Rand, lines int, long bool) []byte {
	// Line text is cut from one random run of bytes without '\n' (including
	// halves of 'é'), which is much faster than drawing every byte.
	text := make([]byte, 64)
	if long {
		text = make([]byte, 3*chunkSize)
	}
	for i := range text {
		text[i] = "abcdefgh é\t"[r.Intn(12)]
	}
	var b bytes.Buffer
	for i := range lines {
		n := r.Intn(40)
		if long && r.Intn(10) == 0 {
			n = r.Intn(len(text))
		}
		from := r.Intn(len(text) - n + 1)
		b.Write(text[from : from+n])
		if i == lines-1 && r.Intn(2) == 0 {
			break // no trailing newline
		}
		if r.Intn(4) == 0 {
			b.WriteString("\r\n")
		} else {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

func TestBuildLineIndex(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	payloads := [][]byte{nil, []byte("\n"), []byte("x"), bytes.Repeat([]byte("\n"), 1024), bytes.Repeat([]byte("\n"), 1025)}
	for range 60 {
		payloads = append(payloads, randomPayload(r, r.Intn(3000), false))
	}
	for _, p := range payloads {
		lines, index := buildLineIndex(p)
		naive := naiveLines(p)
		if lines != int64(len(naive)) {
			t.Fatalf("buildLineIndex of %d bytes: %d lines, naive split has %d", len(p), lines, len(naive))
		}
		var off int64
		for i, l := range naive {
			if i > 0 && i%lineStride == 0 {
				got, err := lineCheckpoint(index, int64(i/lineStride))
				if err != nil {
					t.Fatal(err)
				}
				if got != off {
					t.Fatalf("checkpoint of line %d = %d, want %d", i, got, off)
				}
			}
			off += int64(len(l))
		}
		// One entry per whole stride of lines after the first.
		if _, err := lineCheckpoint(index, (lines-1)/lineStride+1); err == nil && lines > 0 {
			t.Errorf("index of %d lines has more entries than strides", lines)
		}
	}
}

// TestReadLinesMatchesNaive is a property test: any window read through the
// store equals the same lines of a naive split.
func TestReadLinesMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewSource(42))
	s := openTest(t, nil)
	ctx := context.Background()
	for i := range 30 {
		long := i%5 == 0
		n := r.Intn(3000)
		if long {
			n = r.Intn(300)
		}
		p := randomPayload(r, n, long)
		naive := naiveLines(p)
		h, err := s.PutHandle(ctx, "prop", nil, p)
		if err != nil {
			t.Fatal(err)
		}
		for range 15 {
			offset := int64(r.Intn(len(naive) + 1))
			limit := int64(r.Intn(2200))
			sl, err := s.ReadHandle(ctx, h.ID, offset, limit, Lines)
			if err != nil {
				t.Fatalf("payload %d (%d lines), offset %d limit %d: %v", i, len(naive), offset, limit, err)
			}
			want := naiveWindow(naive, offset, clampLimit(limit, DefaultLineLimit, MaxLineLimit))
			if got := []byte(sl.Content); !bytes.Equal(got, want.content) {
				t.Fatalf("payload %d, offset %d limit %d: content differs from the naive split (%d bytes vs %d)", i, offset, limit, len(got), len(want.content))
			}
			if sl.Returned != want.n || sl.Total != int64(len(naive)) || sl.NextOffset != offset+want.n || sl.HasMore != (offset+want.n < int64(len(naive))) {
				t.Fatalf("payload %d, offset %d limit %d: returned %d total %d next %d more %v; want returned %d total %d",
					i, offset, limit, sl.Returned, sl.Total, sl.NextOffset, sl.HasMore, want.n, len(naive))
			}
		}
	}
}

type naiveResult struct {
	content []byte
	n       int64
}

// naiveWindow joins lines [offset, offset+limit), stopping before the
// content passes MaxByteLimit (the random payloads never hold a single
// line that long).
func naiveWindow(lines [][]byte, offset, limit int64) naiveResult {
	res := naiveResult{content: []byte{}}
	for i := offset; i < int64(len(lines)) && res.n < limit; i++ {
		if len(res.content)+len(lines[i]) > MaxByteLimit {
			break
		}
		res.content = append(res.content, lines[i]...)
		res.n++
	}
	return res
}
