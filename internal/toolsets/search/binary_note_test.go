package search

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// A file that matches and holds a NUL past rg's first buffer makes rg
// print, on stdout and whatever --no-messages says, a note without a NUL:
// "./a.log: WARNING: stopped searching binary file after match (found
// "\0" byte around offset N)". Taken for the head of a path holding a
// newline, it swallowed the next file's first hit; every text file's hit
// must be found, in every order rg walks them.
func TestContentRgSkipsBinaryNotes(t *testing.T) {
	testutil.RequireBinary(t, "rg")
	dir := t.TempDir()
	var want []string
	for i := range 20 {
		crashed := "needle at the start\n" + strings.Repeat("x", 200_000) + "\x00\x00\x00\nneedle after\n"
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("a%02d.log", i)), []byte(crashed), 0o644); err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("b%02d.txt", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte("needle in text\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		want = append(want, name)
	}
	s := setOver(t, dir)
	var out contentOut
	if err := json.Unmarshal(runTool(t, s.content(), map[string]any{"pattern": "needle", "engine": "rg", "context_lines": 0, "max_results": 1000}), &out); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range out.Hits {
		if strings.HasSuffix(h.Path, ".txt") {
			got = append(got, h.Path)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("text files with a hit: %q, want all %d: %q", got, len(want), want)
	}
}

// rg's two notes about a binary file name the file of the records before
// them; join lets them go and keeps the records around them whole.
func TestRgRecordsSkipBinaryNotes(t *testing.T) {
	out := "./a.log\x001:\n" +
		"./a.log: WARNING: stopped searching binary file after match (found \"\\0\" byte around offset 200014)\n" +
		"./b.txt\x001:\n" +
		"./c.bin\x003:\n" +
		"./c.bin: binary file matches (found \"\\0\" byte around offset 7)\n" +
		"./d\nname\x002:\n"
	var r rgRecords
	var got []string
	for _, line := range strings.SplitAfter(out, "\n") {
		if line == "" {
			continue
		}
		if rec, ok := r.join([]byte(strings.TrimSuffix(line, "\n"))); ok {
			got = append(got, string(rec))
		}
	}
	want := []string{"./a.log\x001:", "./b.txt\x001:", "./c.bin\x003:", "./d\nname\x002:"}
	if !slices.Equal(got, want) {
		t.Errorf("records %q, want %q", got, want)
	}
}
