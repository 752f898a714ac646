package edit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// New, deleted and renamed files in one git diff, with backups.
func TestApplyDiffNewDeletedRenamed(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "gone.txt"), []byte("bye\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "old.txt"), []byte("a\nb\nc\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("k1\nk2\r\n"), 0o644))
	d := `diff --git a/new/dir/n.txt b/new/dir/n.txt
new file mode 100644
--- /dev/null
+++ b/new/dir/n.txt
@@ -0,0 +1,2 @@
+hello
+world
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git a/old.txt b/moved.txt
similarity index 60%
rename from old.txt
rename to moved.txt
--- a/old.txt
+++ b/moved.txt
@@ -1,3 +1,3 @@
 a
-b
+B
 c
diff --git a/keep.txt b/keep.txt
--- a/keep.txt
+++ b/keep.txt
@@ -1,2 +1,2 @@
-k1
+K1
 k2
`
	s := newSet(t, dir)
	out, terr := applyDiffArgs(t, s, map[string]any{"diff_text": d, "backup": true})
	if terr != nil {
		t.Fatal(terr)
	}
	if out.FilesModified != 4 || out.HunksApplied != 4 {
		t.Fatalf("%+v", out)
	}
	for name, want := range map[string]string{"new/dir/n.txt": "hello\nworld\n", "moved.txt": "a\nB\nc\n", "keep.txt": "K1\nk2\r\n",
		"gone.txt.orig": "bye\n", "old.txt.orig": "a\nb\nc\n", "keep.txt.orig": "k1\nk2\r\n"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != want {
			t.Errorf("%s: %q %v, want %q", name, b, err, want)
		}
	}
	for _, name := range []string{"gone.txt", "old.txt"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s still exists", name)
		}
	}
	if st, _ := os.Stat(filepath.Join(dir, "moved.txt")); st.Mode().Perm() != 0o600 {
		t.Errorf("the renamed file lost its mode: %v", st.Mode())
	}
	assertTidy(t, s, dir)
}

// A diff that changes one file in two sections is refused whole: the two
// would be two changes of one file in one transaction.
func TestApplyDiffRefusesAFileTwice(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("1\n2\n3\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "b.txt"), []byte("b\n"), 0o644))
	d := "--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-b\n+B\n" +
		"--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-1\n+one\n" +
		"--- a/a.txt\n+++ b/a.txt\n@@ -3 +3 @@\n-3\n+three\n"
	s := newSet(t, dir)
	if _, terr := applyDiff(t, s, d, false); terr == nil || terr.Code != tool.InvalidArgument {
		t.Fatalf("want INVALID_ARGUMENT, got %+v", terr)
	}
	for name, want := range map[string]string{"a.txt": "1\n2\n3\n", "b.txt": "b\n"} {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != want {
			t.Errorf("%s changed: %q", name, b)
		}
	}
	assertTidy(t, s, dir)
}

// assertTidy fails the test for a temporary file below dir or a journal
// left by an apply that has returned.
func assertTidy(t *testing.T, s *Set, dir string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), fsroot.TempPrefix) {
			t.Errorf("temporary file left: %s", p)
		}
		return err
	})
	if left, _ := filepath.Glob(filepath.Join(s.journal.Dir(), "*")); len(left) > 0 {
		t.Errorf("journal left: %v", left)
	}
}

// Paths outside the roots, through .. or absolute, reject the whole diff.
func TestApplyDiffPathsStayInside(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "root")
	must(t, os.MkdirAll(dir, 0o755))
	must(t, os.WriteFile(filepath.Join(base, "secret.txt"), []byte("s\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "in.txt"), []byte("i\n"), 0o644))
	s := newSet(t, dir)
	for _, target := range []string{"../secret.txt", filepath.Join(base, "secret.txt")} {
		d := "--- a/in.txt\n+++ b/in.txt\n@@ -1 +1 @@\n-i\n+I\n--- " + target + "\n+++ " + target + "\n@@ -1 +1 @@\n-s\n+S\n"
		_, terr := applyDiffArgs(t, s, map[string]any{"diff_text": d})
		if terr == nil || terr.Code != tool.PatchRejected || !strings.Contains(terr.Message, "outside") {
			t.Fatalf("%s: want a rejection, got %+v", target, terr)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(base, "secret.txt")); string(b) != "s\n" {
		t.Fatal("a file outside the roots changed")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "in.txt")); string(b) != "i\n" {
		t.Fatal("the file inside changed although the diff was rejected")
	}
	if _, terr := applyDiffArgs(t, s, map[string]any{"diff_text": "not a diff"}); terr == nil || terr.Code != tool.InvalidArgument {
		t.Fatalf("want INVALID_ARGUMENT for text without a diff, got %+v", terr)
	}
}

// A hunk whose lines differ only in white space is placed, with a warning.
func TestApplyDiffWhitespaceWarns(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "f.py"), []byte("def f():\n\tx = 1\n\treturn x\n"), 0o644))
	d := "--- a/f.py\n+++ b/f.py\n@@ -1,3 +1,3 @@\n def f():\n-    x = 1\n+    x = 2\n     return x\n"
	out, terr := applyDiffArgs(t, newSet(t, dir), map[string]any{"diff_text": d})
	if terr != nil || len(out.Files) != 1 || !out.Files[0].Hunks[0].Whitespace {
		t.Fatalf("%+v %v", out, terr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "f.py")); string(b) != "def f():\n    x = 2\n\treturn x\n" {
		t.Fatalf("got %q", b)
	}
}
