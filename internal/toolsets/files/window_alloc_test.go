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

// TestIndexedWindowReadsOnlyToTheNextMark: a window read from a line
// index (issue 20's repeated deep window) allocates a read buffer for the
// bytes between the marks around it, not 64 KiB whatever the window.
func TestIndexedWindowReadsOnlyToTheNextMark(t *testing.T) {
	var b strings.Builder
	for i := range 20_000 {
		fmt.Fprintf(&b, "2026-11-22T%02d:%02d:%02d.%06dZ INFO GET /api/v1/items/%08d status=200 bytes=%06d served in %03dms\n", i/3600%24, i/60%60, i%60, i, i, i*7919%1_000_000, i%997)
	}
	data := []byte(b.String())
	idx, err := buildLineIndex(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.SplitAfter(b.String(), "\n")[10_000:10_100]
	read := func() {
		w, err := readIndexedWindow(bytes.NewReader(data), int64(len(data)), idx, 10_000, 100, contentBudget)
		if err != nil || w.Start != 10_000 || len(w.Lines) != 100 || w.Lines[0] != want[0] || w.Lines[99] != want[99] || w.Total != 20_000 {
			t.Fatalf("window at 10,000: start %d, %d lines, total %d: %v", w.Start, len(w.Lines), w.Total, err)
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
	// The 100 lines (11 KB) and their slice (4 KB), and a buffer of at
	// most the 16 KiB before the window, the window and the 16 KiB after
	// it: at most 60 KB (57 KB here). It was 81 KB, with a 64 KiB buffer.
	if limit := uint64(70 << 10); perRead > limit {
		t.Errorf("a 100-line window from the index allocated %d bytes, want at most %d", perRead, limit)
	}
}
