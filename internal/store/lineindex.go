package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// lineStride is the spacing of the sparse line index: it records where
// every 512th line starts, so finding line n costs one index lookup plus a
// scan of at most 511 lines, wherever n is.
const lineStride = 512

// A line is a run of bytes ended by '\n' or by the end of the payload; the
// '\n' (and a '\r' before it) belongs to the line. So "a\nb\n" and "a\nb"
// both have two lines, "a\n\n" has two ("a" and an empty one), and an
// empty payload has none.

// buildLineIndex counts the lines of payload and encodes the start offsets
// of lines lineStride, 2*lineStride, ... as uvarint deltas: a 2-million-line
// payload needs about 4,000 entries, most of them two or three bytes.
func buildLineIndex(payload []byte) (lines int64, index []byte) {
	var buf [binary.MaxVarintLen64]byte
	var prev int64
	pos := 0
	for {
		i := bytes.IndexByte(payload[pos:], '\n')
		if i < 0 {
			break
		}
		pos += i + 1
		lines++
		if lines%lineStride == 0 && pos < len(payload) {
			n := binary.PutUvarint(buf[:], uint64(int64(pos)-prev))
			index = append(index, buf[:n]...)
			prev = int64(pos)
		}
	}
	if pos < len(payload) {
		lines++ // a last line without '\n'
	}
	if index == nil {
		index = []byte{} // NOT NULL column
	}
	return lines, index
}

// lineCheckpoint returns the byte offset where line k*lineStride starts.
// It decodes only the first k entries.
func lineCheckpoint(index []byte, k int64) (int64, error) {
	var off int64
	for i := int64(0); i < k; i++ {
		d, n := binary.Uvarint(index)
		if n <= 0 {
			return 0, fmt.Errorf("line index is damaged at entry %d", i)
		}
		off += int64(d)
		index = index[n:]
	}
	return off, nil
}
