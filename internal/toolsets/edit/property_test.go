package edit

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// For random files and random edits (60; the first 12 under -short), the output of diff -u and of git diff
// --no-index, applied by fs_apply_diff, gives the new version exactly; also
// with every hunk header's line numbers shifted by up to 50 lines.
func TestApplyDiffReproducesNewVersion(t *testing.T) {
	testutil.RequireBinary(t, "diff")
	testutil.RequireBinary(t, "git")
	r := rand.New(rand.NewPCG(1, 2))
	for i := range testutil.Cases(60, 12) {
		old := randomText(r, 20+r.IntN(200))
		neu := randomEdit(r, old)
		for _, kind := range []string{"diff -u", "git diff --no-index", "shifted"} {
			var d string
			switch kind {
			case "diff -u":
				d = unifiedDiff(t, "f.txt", old, neu)
			case "git diff --no-index":
				d = gitDiff(t, "f.txt", old, neu)
			default:
				d = shiftHeaders(r, unifiedDiff(t, "f.txt", old, neu), 50)
			}
			dir := t.TempDir()
			must(t, os.WriteFile(filepath.Join(dir, "f.txt"), []byte(old), 0o644))
			if _, terr := applyDiff(t, newSet(t, dir), d, false); terr != nil {
				t.Fatalf("case %d, %s: %s: %s\n%s", i, kind, terr.Code, terr.Message, d)
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "f.txt")); string(got) != neu {
				t.Fatalf("case %d, %s: got\n%q\nwant\n%q\ndiff:\n%s", i, kind, got, neu, d)
			}
		}
	}
}

// A diff of many files with one conflicting hunk among many leaves every
// file byte-identical, and says which hunk and why.
func TestApplyDiffAllOrNothing(t *testing.T) {
	testutil.RequireBinary(t, "diff")
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 20 {
		dir := t.TempDir()
		var diff strings.Builder
		olds := map[string]string{}
		for f := range 5 {
			name := fmt.Sprintf("pkg/f%d.txt", f)
			old := randomText(r, 60+r.IntN(100))
			olds[name] = old
			must(t, os.MkdirAll(filepath.Join(dir, "pkg"), 0o755))
			must(t, os.WriteFile(filepath.Join(dir, name), []byte(old), 0o644))
			diff.WriteString(unifiedDiff(t, name, old, randomEdit(r, old)))
		}
		// One hunk of one file no longer matches: its file was changed under it.
		victim := fmt.Sprintf("pkg/f%d.txt", r.IntN(5))
		text := diff.String()
		d := conflict(t, text, victim)
		_, terr := applyDiff(t, newSet(t, dir), d, false)
		if terr == nil || terr.Code != tool.PatchRejected || !strings.Contains(terr.Message, victim) {
			t.Fatalf("round %d: want PATCH_REJECTED naming %s, got %+v", round, victim, terr)
		}
		for name, old := range olds {
			if got, _ := os.ReadFile(filepath.Join(dir, name)); string(got) != old {
				t.Fatalf("round %d: %s changed although the diff was rejected", round, name)
			}
		}
		ents, _ := os.ReadDir(filepath.Join(dir, "pkg"))
		if len(ents) != 5 {
			t.Fatalf("round %d: files appeared or vanished: %v", round, ents)
		}
	}
}

// conflict changes one removed or context line of the victim's diff so
// that its hunk matches nothing in the file.
func conflict(t *testing.T, diff, victim string) string {
	t.Helper()
	start := strings.Index(diff, "--- a/"+victim+"\n")
	if start < 0 {
		t.Fatalf("no diff for %s", victim)
	}
	end := len(diff)
	if next := strings.Index(diff[start+1:], "\n--- a/"); next >= 0 {
		end = start + 1 + next + 1
	}
	lines := strings.SplitAfter(diff[start:end], "\n")
	// A removed line, or else the context line next to an added one: fuzz
	// may ignore up to two context lines at a hunk's ends, never these.
	for i := 3; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "-") && !strings.HasPrefix(lines[i], "---") {
			lines[i] = "-THIS LINE IS NOT IN THE FILE\n"
			return diff[:start] + strings.Join(lines, "") + diff[end:]
		}
	}
	for i := 3; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "+") && !strings.HasPrefix(lines[i], "+++") {
			for _, j := range []int{i - 1, i + 1} {
				if j < len(lines) && strings.HasPrefix(lines[j], " ") {
					lines[j] = " THIS LINE IS NOT IN THE FILE\n"
					return diff[:start] + strings.Join(lines, "") + diff[end:]
				}
			}
		}
	}
	t.Skip("the victim's diff has no line to spoil")
	return ""
}
