package files

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// uneven is n lines of lengths from 0 to a few hundred bytes, with one
// line longer than a mark's gap, ending without a newline when asked.
func uneven(n int, lastNewline bool) []byte {
	var b bytes.Buffer
	for i := range n {
		switch {
		case i == n/3:
			b.WriteString(strings.Repeat("L", 3*markBytes))
		case i%17 == 0: // empty
		default:
			fmt.Fprintf(&b, "%d %s", i, strings.Repeat("x", i*7919%300))
		}
		b.WriteByte('\n')
	}
	if !lastNewline && n > 0 {
		b.Truncate(b.Len() - 1)
	}
	return b.Bytes()
}

func sameWindow(a, b window) bool {
	return a.Start == b.Start && a.Total == b.Total && a.Estimated == b.Estimated &&
		a.CutLines == b.CutLines && a.ByteBudget == b.ByteBudget && slices.Equal(a.Lines, b.Lines)
}

// Every window read from an index is the one read from the top: the same
// lines, start and total, for windows before, across and after marks, for
// tails, and past the end.
func TestIndexedWindowsMatchPlainReads(t *testing.T) {
	for name, data := range map[string][]byte{
		"numbered":         numbered(40_000, true),
		"uneven":           uneven(5_000, true),
		"unterminated":     uneven(5_000, false),
		"small":            numbered(10, true),
		"empty":            nil,
		"one long line":    bytes.Repeat([]byte("y"), 5*markBytes),
		"only newlines":    bytes.Repeat([]byte("\n"), 3*markBytes),
		"newline at marks": bytes.Repeat([]byte(strings.Repeat("z", markBytes-1)+"\n"), 6),
	} {
		t.Run(name, func(t *testing.T) {
			r := bytes.NewReader(data)
			size := int64(len(data))
			x, err := buildLineIndex(r, size)
			if err != nil {
				t.Fatal(err)
			}
			if want := bytes.Count(data, []byte{'\n'}); x.lines != want && x.lines != want+1 {
				t.Fatalf("%d lines, file has %d newlines", x.lines, want)
			}
			for _, m := range x.marks {
				if m.off <= 0 || m.off >= size || data[m.off-1] != '\n' || bytes.Count(data[:m.off], []byte{'\n'}) != m.line {
					t.Fatalf("mark %+v is not where line %d starts", m, m.line)
				}
			}
			offsets := []int{0, 1, x.lines / 3, x.lines/3 + 1, x.lines / 2, x.lines - 1, x.lines, x.lines + 5, -1, -7, -x.lines, -x.lines - 3}
			for _, m := range x.marks {
				offsets = append(offsets, m.line-1, m.line, m.line+1)
			}
			for _, off := range offsets {
				for _, limit := range []int{1, 100} {
					want, err := readWindow(r, size, off, limit, contentBudget)
					if err != nil {
						t.Fatal(err)
					}
					got, err := readIndexedWindow(r, size, x, off, limit, contentBudget)
					if err != nil {
						t.Fatalf("offset %d: %v", off, err)
					}
					if !sameWindow(got, want) {
						t.Fatalf("offset %d limit %d: indexed start %d total %d %d lines, plain start %d total %d %d lines",
							off, limit, got.Start, got.Total, len(got.Lines), want.Start, want.Total, len(want.Lines))
					}
				}
			}
		})
	}
}

// An index's memory does not grow with the file: a 36 MiB file of 3
// million lines takes no more marks than a 2 MiB one.
func TestLineIndexMemoryIsFlat(t *testing.T) {
	var sizes []int
	for _, n := range []int{150_000, 3_000_000} {
		data := numbered(n, true)
		x, err := buildLineIndex(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if x.lines != n || len(x.marks) > maxMarks || x.bytes() > 96+16*maxMarks {
			t.Errorf("%d lines: counted %d, %d marks, %d bytes", n, x.lines, len(x.marks), x.bytes())
		}
		sizes = append(sizes, x.bytes())
	}
	t.Logf("index bytes for 150k and 3M lines: %v", sizes)
}

// The cache holds at most its budget, dropping the least recently used.
func TestLineIndexCacheBudget(t *testing.T) {
	one := &lineIndex{marks: make([]lineMark, 100)}
	c := newLineIndexCache(10 * one.bytes())
	for i := range 50 {
		c.put(&lineIndex{version: fileVersion{ino: uint64(i)}, marks: make([]lineMark, 100)})
		if c.used > c.budget || c.lru.Len() != len(c.byID) {
			t.Fatalf("after %d: %d bytes held of %d, %d in list, %d by id", i, c.used, c.budget, c.lru.Len(), len(c.byID))
		}
		if c.get(fileVersion{ino: 0}) == nil { // kept in use: never the least recent
			t.Fatalf("after %d: the index in use was dropped", i)
		}
	}
	if c.lru.Len() != 10 || c.get(fileVersion{ino: 1}) != nil || c.get(fileVersion{ino: 49}) == nil {
		t.Errorf("%d kept; want the 10 most recently used", c.lru.Len())
	}
	c.put(&lineIndex{version: fileVersion{ino: 99}, marks: make([]lineMark, 2000)}) // over the whole budget
	if c.get(fileVersion{ino: 99}) != nil || c.used > c.budget {
		t.Errorf("an index over the budget was kept")
	}
}

// windowOf reads path's window through c, as fs_read does.
func windowOf(t *testing.T, c *lineIndexCache, path string, offset, limit int) window {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.window(f, st, offset, limit, contentBudget)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// cached reports whether c holds an index of path as it is now.
func cached(t *testing.T, c *lineIndexCache, path string) bool {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	v, _, _ := versionOf(st)
	return c.get(v) != nil
}

// Across appends, truncations, a same-size rewrite with the modification
// time put back, and a replacement by rename, every window read through
// the cache is the file's as it is now: never a line of a version gone.
func TestLineIndexCacheFollowsChanges(t *testing.T) {
	c := newLineIndexCache(lineIndexBudget)
	c.now = func() time.Time { return time.Now().Add(time.Hour) } // every file settled
	dir := t.TempDir()
	path := filepath.Join(dir, "log")
	check := func(step string, kept int) {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, off := range []int{0, 9_000, 19_990, -5} {
			want, err := readWindow(bytes.NewReader(data), int64(len(data)), off, 20, contentBudget)
			if err != nil {
				t.Fatal(err)
			}
			for round := range 2 { // building the index, then from it
				if got := windowOf(t, c, path, off, 20); !sameWindow(got, want) {
					t.Fatalf("%s, offset %d, round %d: got start %d total %d %q, want start %d total %d %q",
						step, off, round, got.Start, got.Total, got.Lines, want.Start, want.Total, want.Lines)
				}
			}
		}
		if !cached(t, c, path) {
			t.Fatalf("%s: no index kept", step)
		}
		if c.lru.Len() != kept {
			t.Fatalf("%s: %d indexes kept, want %d", step, c.lru.Len(), kept)
		}
	}
	mustDo(t, os.WriteFile(path, numbered(20_000, true), 0o644))
	check("written", 1)

	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	mustDo(t, err)
	_, err = f.WriteString("appended 1\nappended 2")
	mustDo(t, err)
	mustDo(t, f.Close())
	check("appended", 1)

	mustDo(t, os.Truncate(path, int64(len(numbered(19_995, true))+3)))
	check("truncated", 1)

	st, err := os.Stat(path)
	mustDo(t, err)
	same := bytes.ReplaceAll(numbered(20_000, true)[:st.Size()], []byte("line 1"), []byte("LINE\n1"))
	mustDo(t, os.WriteFile(path, same, 0o644))
	mustDo(t, os.Chtimes(path, st.ModTime(), st.ModTime())) // same size, same mtime
	check("rewritten in place", 1)

	tmp := filepath.Join(dir, "log.new")
	mustDo(t, os.WriteFile(tmp, uneven(20_000, false), 0o644))
	mustDo(t, os.Rename(tmp, path))
	check("replaced by rename", 2) // the old inode's until the LRU drops it: no name reaches it
}

// A file changed within settleTime is read through an index but the index
// is not kept: a second change in the same timestamp tick could leave its
// key alone.
func TestLineIndexCacheSkipsRecentFiles(t *testing.T) {
	c := newLineIndexCache(lineIndexBudget)
	path := filepath.Join(t.TempDir(), "log")
	mustDo(t, os.WriteFile(path, numbered(30_000, true), 0o644))
	w := windowOf(t, c, path, 20_000, 2)
	if w.Start != 20_000 || w.Total != 30_000 || w.Lines[0] != "line 20000\n" {
		t.Fatalf("start %d total %d %q", w.Start, w.Total, w.Lines)
	}
	if cached(t, c, path) {
		t.Error("the index of a file written just now was kept")
	}
}

// An index that does not fit the bytes it is used on is refused, not
// believed: its marks must start lines.
func TestStaleIndexRefused(t *testing.T) {
	a := numbered(20_000, true)
	x, err := buildLineIndex(bytes.NewReader(a), int64(len(a)))
	mustDo(t, err)
	b := bytes.ReplaceAll(a, []byte("\n"), []byte(" "))
	if _, err := readIndexedWindow(bytes.NewReader(b), int64(len(b)), x, 15_000, 10, contentBudget); !errors.Is(err, errStaleIndex) {
		t.Errorf("want errStaleIndex, got %v", err)
	}
}
