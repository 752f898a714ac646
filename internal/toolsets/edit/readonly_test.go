package edit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// TestEditsStayOutOfReadOnlyRootThroughLink: with a read-only root nested
// in a read-write one and a symbolic link to it, neither edit tool can
// change, create or delete a file of the read-only root through the link.
func TestEditsStayOutOfReadOnlyRootThroughLink(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	rw, ro := filepath.Join(base, "R"), filepath.Join(base, "R", "ro")
	must(t, os.MkdirAll(ro, 0o755))
	must(t, os.WriteFile(filepath.Join(ro, "f.txt"), []byte("one\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(rw, "g.txt"), []byte("two\n"), 0o644))
	must(t, os.Symlink("ro", filepath.Join(rw, "alias")))
	roots, err := fsroot.Open([]fsroot.Spec{{Path: rw}, {Path: ro, ReadOnly: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { roots.Close() })
	s := New(&Deps{Roots: roots})

	if _, terr := patchBlock(t, s, map[string]any{"path": "alias/f.txt", "old_text": "one", "new_text": "ONE"}); terr == nil || terr.Code != tool.ReadOnlyMode {
		t.Errorf("fs_patch_block through the link: want READ_ONLY, got %+v", terr)
	}
	diffs := map[string]string{
		"modify":      "--- a/alias/f.txt\n+++ b/alias/f.txt\n@@ -1 +1 @@\n-one\n+ONE\n",
		"create":      "--- /dev/null\n+++ b/alias/new.txt\n@@ -0,0 +1 @@\n+new\n",
		"delete":      "--- a/alias/f.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-one\n",
		"rename into": "diff --git a/g.txt b/alias/g.txt\nsimilarity index 100%\nrename from g.txt\nrename to alias/g.txt\n",
		"rename out":  "diff --git a/alias/f.txt b/f.txt\nsimilarity index 100%\nrename from alias/f.txt\nrename to f.txt\n",
	}
	for name, d := range diffs {
		_, terr := applyDiff(t, s, d, false)
		if terr == nil {
			t.Errorf("fs_apply_diff %s through the link: applied", name)
		}
	}
	if b, err := os.ReadFile(filepath.Join(ro, "f.txt")); err != nil || string(b) != "one\n" {
		t.Errorf("the read-only file changed: %q %v", b, err)
	}
	ents, _ := os.ReadDir(ro)
	if len(ents) != 1 {
		t.Errorf("the read-only root holds %d entries, want only f.txt", len(ents))
	}
	if b, err := os.ReadFile(filepath.Join(rw, "g.txt")); err != nil || string(b) != "two\n" {
		t.Errorf("g.txt moved or changed: %q %v", b, err)
	}
}
