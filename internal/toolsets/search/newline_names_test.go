package search

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// newlineTree holds names with a newline (inside, first, last, in a
// subdirectory), each a match, beside files named like their halves: "a"
// a match too, and the ignored b_t.go, ig_t.go and d/f_t.go, which also
// match. A reader that splits rg's output at the newline loses the named
// file, or reports a half, which may be one of the ignored files.
func newlineTree(t *testing.T) *Set {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"a\nb_t.go":        "needle in the newline name\n",
		"a":                "needle in the first half\n",
		"b_t.go":           "needle in the ignored second half\n",
		"ig_t.go\nc_t.go":  "x\nneedle\n",
		"ig_t.go":          "needle ignored\n",
		"\nstart_t.go":     "needle\n",
		"end_t.go\n":       "needle\n",
		"d/e\nf_t.go":      "needle below\n",
		"d/f_t.go":         "needle ignored below\n",
		".gitignore":       "b_t.go\nig_t.go\nf_t.go\n",
		"plain_t.go":       "needle plain\n",
		"d/\n\n_t.go":      "needle\n",
		"d/two\nlines\n.x": "needle\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return setOver(t, dir)
}

// The names with a newline that search_files and search_content must
// report, shown as fsroot.ShowName shows them, and the ignored halves that
// neither may report.
var (
	newlineNames = []string{`\x0astart_t.go`, `a\x0ab_t.go`, `d/\x0a\x0a_t.go`, `d/e\x0af_t.go`, `d/two\x0alines\x0a.x`, `end_t.go\x0a`, `ig_t.go\x0ac_t.go`}
	ignoredHalf  = []string{"b_t.go", "ig_t.go", "d/f_t.go"}
)

// Both engines list a file whose name holds a newline, once, and never a
// half of it: not the ignored files named like its halves.
func TestFilesNewlineNamesBothEngines(t *testing.T) {
	testutil.RequireBinary(t, "rg")
	s := newlineTree(t)
	for _, args := range []map[string]any{{"pattern": ""}, {"pattern": "_t.go"}, {"pattern": "*\n*"}} {
		label := fmt.Sprintf("pattern %q", args["pattern"])
		got := map[string][]string{}
		for _, eng := range []string{"rg", "native"} {
			args["engine"] = eng
			var out filesOut
			if err := json.Unmarshal(runTool(t, s.files(), args), &out); err != nil {
				t.Fatal(err)
			}
			for _, h := range out.Hits {
				got[eng] = append(got[eng], h.Path)
			}
			if out.TotalHits != len(out.Hits) {
				t.Errorf("%s %s: total %d for %d hits", label, eng, out.TotalHits, len(out.Hits))
			}
		}
		if diff := cmp.Diff(got["native"], got["rg"]); diff != "" {
			t.Errorf("%s: native vs rg (-native +rg):\n%s", label, diff)
		}
		for _, n := range newlineNames {
			if p, _ := args["pattern"].(string); (p == "" || p == "*\n*" || strings.Contains(n, "_t.go")) && !slices.Contains(got["rg"], n) {
				t.Errorf("%s: %q not listed: %q", label, n, got["rg"])
			}
		}
		for _, n := range ignoredHalf {
			if slices.Contains(got["rg"], n) {
				t.Errorf("%s: ignored %q listed", label, n)
			}
		}
	}
}

// Both engines find the lines of a file whose name holds a newline, under
// that name, and no line of a file named like one of its halves that the
// search leaves out.
func TestContentNewlineNamesBothEngines(t *testing.T) {
	testutil.RequireBinary(t, "rg")
	s := newlineTree(t)
	for _, ignored := range []bool{false, true} {
		args := map[string]any{"pattern": "needle", "include_ignored": ignored, "context_lines": 0}
		got := map[string][]string{}
		for _, eng := range []string{"rg", "native"} {
			args["engine"] = eng
			var out contentOut
			if err := json.Unmarshal(runTool(t, s.content(), args), &out); err != nil {
				t.Fatal(err)
			}
			for _, h := range out.Hits {
				got[eng] = append(got[eng], fmt.Sprintf("%s:%d:%s", h.Path, h.Line, h.Snippet))
			}
		}
		if diff := cmp.Diff(got["native"], got["rg"]); diff != "" {
			t.Errorf("include_ignored %v: native vs rg (-native +rg):\n%s", ignored, diff)
		}
		for _, want := range []string{"a:1:needle in the first half", `a\x0ab_t.go:1:needle in the newline name`, `ig_t.go\x0ac_t.go:2:needle`, `d/two\x0alines\x0a.x:1:needle`} {
			if !slices.Contains(got["rg"], want) {
				t.Errorf("include_ignored %v: no hit %q in %q", ignored, want, got["rg"])
			}
		}
		for _, n := range ignoredHalf {
			found := slices.ContainsFunc(got["rg"], func(h string) bool { return len(h) > len(n) && h[:len(n)+1] == n+":" })
			if found != ignored {
				t.Errorf("include_ignored %v: ignored %q found %v: %q", ignored, n, found, got["rg"])
			}
		}
	}
}
