package edit

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// allocated runs f and returns the bytes it allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A 4 MB diff of two million empty lines took 650 MB to parse and place;
// old_text and new_text of many lines cost as much in the near-miss search
// and the answer's diff. They are refused before any of it.
func TestManyLinesRefusedBeforeParsing(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newSet(t, dir)
	lines := strings.Repeat("+\n", 1<<20)
	cases := map[string]func() *tool.Error{
		"diff_text": func() *tool.Error {
			_, terr := applyDiff(t, s, "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1048576 @@\n"+lines, true)
			return terr
		},
		"old_text": func() *tool.Error {
			_, terr := patchBlock(t, s, map[string]any{"path": "f.txt", "old_text": lines, "new_text": "x"})
			return terr
		},
		"new_text": func() *tool.Error {
			_, terr := patchBlock(t, s, map[string]any{"path": "f.txt", "old_text": "two\n", "new_text": lines, "dry_run": true})
			return terr
		},
	}
	for arg, call := range cases {
		var terr *tool.Error
		alloc := allocated(func() { terr = call() })
		want := arg + " has 1048576 lines, over the limit of 50000"
		if arg == "diff_text" {
			want = arg + " has 1048579 lines" // and its three header lines
		}
		if terr == nil || terr.Code != tool.InvalidArgument || !strings.Contains(terr.Message, want) {
			t.Errorf("%s of a million lines: %+v", arg, terr)
		}
		if alloc > 64<<20 {
			t.Errorf("%s: refusing it allocated %d MiB", arg, alloc>>20)
		}
	}
}
