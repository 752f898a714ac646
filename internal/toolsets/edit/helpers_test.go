package edit

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// newSet is the edit toolset over one root, dir.
func newSet(t testing.TB, dir string) *Set {
	t.Helper()
	roots, err := fsroot.Open([]fsroot.Spec{{Path: dir}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { roots.Close() })
	return New(&Deps{Roots: roots, Journal: fsroot.NewJournal(t.TempDir())})
}

func applyDiff(t testing.TB, s *Set, diff string, dry bool) (diffOut, *tool.Error) {
	t.Helper()
	return applyDiffArgs(t, s, map[string]any{"diff_text": diff, "dry_run": dry})
}

func applyDiffArgs(t testing.TB, s *Set, args map[string]any) (diffOut, *tool.Error) {
	t.Helper()
	return tooltest.Run[diffOut](t, context.Background(), s.applyDiff(), "test", args)
}

var words = strings.Fields(`alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau
upsilon phi chi psi omega func return if else for range go defer select case struct map chan int string byte error nil true
false var const type package import log fmt the a of to in is it that on with as at by from`)

// randomText is n lines of random words; some lines are blank, some indented.
func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		if r.IntN(12) == 0 {
			b.WriteString("\n")
			continue
		}
		b.WriteString(strings.Repeat("\t", r.IntN(3)))
		for j := range 1 + r.IntN(8) {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[r.IntN(len(words))])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// randomEdit changes a few places of text: lines replaced, inserted and
// deleted; sometimes the final newline goes or comes.
func randomEdit(r *rand.Rand, text string) string {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for range 1 + r.IntN(5) {
		if len(lines) == 0 {
			lines = append(lines, randomText(r, 1))
			continue
		}
		at := r.IntN(len(lines))
		switch r.IntN(3) {
		case 0:
			lines[at] = randomText(r, 1)
		case 1:
			ins := strings.SplitAfter(strings.TrimSuffix(randomText(r, 1+r.IntN(4)), "\n"), "\n")
			for i := range ins {
				if !strings.HasSuffix(ins[i], "\n") {
					ins[i] += "\n"
				}
			}
			lines = append(lines[:at], append(ins, lines[at:]...)...)
		default:
			n := min(1+r.IntN(3), len(lines)-at)
			lines = append(lines[:at], lines[at+n:]...)
		}
	}
	out := strings.Join(lines, "")
	if r.IntN(10) == 0 {
		out = strings.TrimSuffix(out, "\n")
	}
	return out
}

// unifiedDiff runs `diff -u` (GNU diffutils) with the file's path as both
// labels, as an agent's diff of path would say.
func unifiedDiff(t testing.TB, path, old, neu string) string {
	t.Helper()
	dir := t.TempDir()
	o, n := filepath.Join(dir, "old"), filepath.Join(dir, "new")
	must(t, os.WriteFile(o, []byte(old), 0o644))
	must(t, os.WriteFile(n, []byte(neu), 0o644))
	out, err := exec.Command("diff", "-u", "--label", "a/"+path, "--label", "b/"+path, o, n).Output()
	if err != nil && !isExit(err, 1) {
		t.Fatalf("diff -u: %v", err)
	}
	return string(out)
}

// gitDiff runs `git diff --no-index` and names both sides path, as a diff
// made in the repository would.
func gitDiff(t testing.TB, path, old, neu string) string {
	t.Helper()
	dir := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, "o"), 0o755))
	must(t, os.MkdirAll(filepath.Join(dir, "n"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "o", "f"), []byte(old), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "n", "f"), []byte(neu), 0o644))
	cmd := exec.Command("git", "diff", "--no-index", "--no-color", "o/f", "n/f")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil && !isExit(err, 1) {
		t.Fatalf("git diff --no-index: %v", err)
	}
	s := strings.ReplaceAll(string(out), "a/o/f", "a/"+path)
	return strings.ReplaceAll(s, "b/n/f", "b/"+path)
}

var hunkHeader = regexp.MustCompile(`(?m)^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@`)

// shiftHeaders moves every hunk header's line numbers by up to limit lines,
// as agents' diffs often have them wrong.
func shiftHeaders(r *rand.Rand, diff string, limit int) string {
	return hunkHeader.ReplaceAllStringFunc(diff, func(h string) string {
		m := hunkHeader.FindStringSubmatch(h)
		o, _ := strconv.Atoi(m[1])
		n, _ := strconv.Atoi(m[3])
		if o == 0 { // an empty pre-image: its position is exact by definition
			return h
		}
		d := r.IntN(2*limit+1) - limit
		return fmt.Sprintf("@@ -%d%s +%d%s @@", max(1, o+d), m[2], max(1, n+d), m[4])
	})
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func isExit(err error, code int) bool {
	ee, ok := err.(*exec.ExitError)
	return ok && ee.ExitCode() == code
}
