package search

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// oddNames are file names that a reader of rg's lines or of directory
// entries could mangle: spaces, leading dashes, glob and gitignore
// metacharacters, quotes, backslashes, bytes that are not UTF-8, control
// characters, U+2028.
var oddNames = []string{
	"plain_t.go", "with space_t.go", "-dash_t.go", "--_t.go", "star*_t.go", "q?_t.go", "[cls]_t.go",
	"{a,b}_t.go", "!bang_t.go", "#hash_t.go", `back\slash_t.go`, `quote"d_t.go`, "bad-\xff\xfe_t.go",
	"ctl-\x01\x1f_t.go", "sep\u2028_t.go", "tab\t_t.go", "long-" + strings.Repeat("x", 240) + "_t.go",
}

// oddTree writes oddNames, and beside them what search_files must not
// list, in one directory, and a few names in others.
func oddTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret_t.go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"many", "one", "one/deeper"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range oddNames {
		if err := os.WriteFile(filepath.Join(dir, "many", n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"one/only_t.go", "one/other.go", "one/deeper/x_t.go"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		"many/out_t.go":    filepath.Join(outside, "secret_t.go"),
		"many/in_t.go":     filepath.Join(dir, "many/plain_t.go"),
		"many/dir_t.go":    outside,
		"many/dangle_t.go": filepath.Join(dir, "nowhere"),
		"one/lnk_t.go":     filepath.Join(outside, "secret_t.go"),
	} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "many/fifo_t.go"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "many/adir_t.go"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// search_files through rg lists exactly the regular files the native
// walker lists, odd names and all, in a directory holding many matches and
// in one holding a single one; never a link, a FIFO or a directory.
func TestFilesOddNamesBothEngines(t *testing.T) {
	testutil.RequireBinary(t, "rg")
	dir := oddTree(t)
	s := setOver(t, dir)
	// Sorted by the name itself, then shown escaped, as search_files does.
	raw := []string{"one/deeper/x_t.go", "one/only_t.go"}
	for _, n := range oddNames {
		raw = append(raw, "many/"+n)
	}
	sort.Strings(raw)
	var want []string
	for _, p := range raw {
		want = append(want, fsroot.ShowName(p))
	}
	for _, eng := range []string{"rg", "native"} {
		var out filesOut
		if err := json.Unmarshal(runTool(t, s.files(), map[string]any{"pattern": "_t.go", "engine": eng, "max_results": 2000}), &out); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range out.Hits {
			got = append(got, h.Path)
		}
		if diff := cmp.Diff(want, got); diff != "" || out.TotalHits != len(want) || !out.Complete {
			t.Errorf("%s: total %d complete %v (-want +got):\n%s", eng, out.TotalHits, out.Complete, diff)
		}
	}
}

// A name holding a newline reached search_files through rg as two lines:
// where each half was itself the path of a file rg lists, that file was
// listed twice, and a half naming a file rg leaves out (.gitignore) was
// listed; then the name itself was dropped. rg's NUL-ended paths bring it
// whole: it is listed once, shown as fsroot.ShowName shows it, each half
// once or not at all, and the total counts each once.
func TestFilesNewlineNameListsNothingTwice(t *testing.T) {
	testutil.RequireBinary(t, "rg")
	dir := t.TempDir()
	for _, n := range []string{"a_t.go\nb_t.go", "a_t.go", "b_t.go", "c\nig_t.go", "ig_t.go"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("ig_t.go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := setOver(t, dir)
	var out filesOut
	if err := json.Unmarshal(runTool(t, s.files(), map[string]any{"pattern": "_t.go", "engine": "rg"}), &out); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, h := range out.Hits {
		seen[h.Path]++
	}
	for p, n := range seen {
		if n > 1 {
			t.Errorf("%q listed %d times", p, n)
		}
	}
	if out.TotalHits != len(seen) || len(seen) != 4 || seen["a_t.go"] != 1 || seen["b_t.go"] != 1 || seen["ig_t.go"] != 0 ||
		seen[`a_t.go\x0ab_t.go`] != 1 || seen[`c\x0aig_t.go`] != 1 {
		t.Errorf("total %d, hits %q", out.TotalHits, out.Hits)
	}
}
