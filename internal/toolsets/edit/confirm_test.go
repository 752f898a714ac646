package edit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// twoFileDiff changes a.txt and deletes b.txt in dir.
func twoFileDiff(t *testing.T, dir string) string {
	t.Helper()
	for name, text := range map[string]string{"a.txt": "one\ntwo\n", "b.txt": "gone\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n--- a/b.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-gone\n"
}

func contents(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	for _, name := range []string{"a.txt", "b.txt"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		fmt.Fprintf(&b, "%s:%q:%v\n", name, data, err != nil)
	}
	return b.String()
}

// fs_apply_diff's dry run shows each file's diff and changes nothing; a
// call over the configured number of files asks, a decline writes nothing
// and a yes applies exactly the previewed change.
func TestApplyDiffDryRunAndConfirmation(t *testing.T) {
	dir := t.TempDir()
	s := newSet(t, dir)
	diff := twoFileDiff(t, dir)
	before := contents(t, dir)
	dry, terr := applyDiff(t, s, diff, true)
	if terr != nil || len(dry.Files) != 2 || dry.Plan == nil || dry.FilesModified != 0 {
		t.Fatalf("dry run: %+v, %+v", dry, terr)
	}
	want := "Apply a diff to 2 files: modified a.txt; deleted b.txt"
	if dry.Plan.Summary != want || !strings.Contains(dry.Files[0].Diff, "-two\n+TWO\n") || !strings.Contains(dry.Files[1].Diff, "-gone\n") {
		t.Errorf("dry run: summary %q (want %q), files %+v", dry.Plan.Summary, want, dry.Files)
	}
	if contents(t, dir) != before {
		t.Fatal("the dry run changed a file")
	}
	ctx := context.Background()
	args := map[string]any{"diff_text": diff}
	_, asked, terr := tooltest.RunAsked[diffOut](t, ctx, s.applyDiff(), args, tooltest.Decline, "files>1")
	if terr == nil || terr.Code != tool.Declined || len(asked) != 1 || asked[0].Summary != want || contents(t, dir) != before {
		t.Fatalf("declined: %+v, asked %+v", terr, asked)
	}
	_, asked, terr = tooltest.RunAsked[diffOut](t, ctx, s.applyDiff(), args, tooltest.Decline, "files>2", "deletes>1")
	if terr != nil || len(asked) != 0 {
		t.Fatalf("two files under files>2: %+v, asked %+v", terr, asked)
	}
	if got := contents(t, dir); got != "a.txt:\"one\\nTWO\\n\":false\nb.txt:\"\":true\n" {
		t.Errorf("after the diff: %s", got)
	}
}

// A file changed while the question is open asks again, with the new
// change; the yes to the old one does not carry over.
func TestApplyDiffAsksAgainWhenAFileChanged(t *testing.T) {
	dir := t.TempDir()
	s := newSet(t, dir)
	diff := twoFileDiff(t, dir)
	answer := func(n int, q tool.Question) string {
		if n == 1 {
			// a.txt gains a line the diff's context still fits.
			if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\nthree\n"), 0o644); err != nil {
				t.Error(err)
			}
		}
		return tool.ActionAccept
	}
	out, asked, terr := tooltest.RunAsked[diffOut](t, context.Background(), s.applyDiff(), map[string]any{"diff_text": diff}, answer, "always")
	if terr != nil || len(asked) != 2 || !asked[1].Changed || out.FilesModified != 2 {
		t.Fatalf("%+v, %+v, asked %+v", out, terr, asked)
	}
	if got := contents(t, dir); got != "a.txt:\"one\\nTWO\\nthree\\n\":false\nb.txt:\"\":true\n" {
		t.Errorf("after the diff: %s", got)
	}
}

// fs_patch_block's dry run gives the plan it would ask about.
func TestPatchBlockConfirmation(t *testing.T) {
	dir := t.TempDir()
	twoFileDiff(t, dir)
	s := newSet(t, dir)
	before := contents(t, dir)
	args := map[string]any{"path": "a.txt", "old_text": "two\n", "new_text": "2\n"}
	ctx := context.Background()
	_, asked, terr := tooltest.RunAsked[blockOut](t, ctx, s.patchBlock(), args, tooltest.Decline, "replacements>0")
	want := fmt.Sprintf("Replace 1 occurrence of old_text (1 line) in %q, from line 2, with 1 line", filepath.Join(dir, "a.txt"))
	if terr == nil || terr.Code != tool.Declined || len(asked) != 1 || asked[0].Summary != want || contents(t, dir) != before {
		t.Fatalf("declined: %+v, asked %+v, want %q", terr, asked, want)
	}
	args["dry_run"] = true
	out, _, terr := tooltest.RunAsked[blockOut](t, ctx, s.patchBlock(), args, tooltest.Decline, "replacements>0")
	if terr != nil || out.Plan == nil || !out.Plan.NeedsConfirmation || out.Plan.Summary != want || contents(t, dir) != before {
		t.Fatalf("dry run: %+v, %+v", out, terr)
	}
}
