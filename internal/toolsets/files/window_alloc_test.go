package files

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestReadWindowOfASmallFileAllocatesAboutItsSize: reading a 12 KB file
// whole (issue 20's 200-line read) allocates about the lines it returns,
// not a read buffer several times the file nor a second copy of each line:
// what a call allocates the collector pays for on every call.
func TestReadWindowOfASmallFileAllocatesAboutItsSize(t *testing.T) {
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "2026-11-22T03:%02d:%02dZ INFO request id=%09d served in %dms\n", i/60%60, i%60, i, i%97)
	}
	data := []byte(b.String())
	read := func() {
		w, err := readWindow(bytes.NewReader(data), int64(len(data)), 0, 200, contentBudget)
		if err != nil || len(w.Lines) != 200 || w.Total != 200 || w.Lines[199] != b.String()[len(data)-len(w.Lines[199]):] {
			t.Fatalf("read %d of 200 lines (total %d): %v", len(w.Lines), w.Total, err)
		}
	}
	read()
	const runs = 50
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		read()
	}
	runtime.ReadMemStats(&after)
	perRead := (after.TotalAlloc - before.TotalAlloc) / runs
	// The lines (one copy: 12 KB), the slice of them (8 KB as it grows)
	// and a buffer no larger than the file: 34 KB. It was 101 KB: a 64 KiB
	// buffer, and each line gathered into a slice before its string.
	if limit := uint64(4 * len(data)); perRead > limit {
		t.Errorf("reading a %d-byte file allocated %d bytes, want at most %d", len(data), perRead, limit)
	}
}
