package edit

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

func patchBlock(t *testing.T, s *Set, args map[string]any) (blockOut, *tool.Error) {
	t.Helper()
	return tooltest.Run[blockOut](t, context.Background(), s.patchBlock(), "test", args)
}

func TestPatchBlock(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "main.go")
	src := "package main\n\nfunc main() {\n\tfmt.Println(\"hi\")\n\tfmt.Println(\"hi\")\n}\n"
	must(t, os.WriteFile(p, []byte(src), 0o750))
	s := newSet(t, dir)

	// Two occurrences, one expected: nothing written.
	_, terr := patchBlock(t, s, map[string]any{"path": "main.go", "old_text": "fmt.Println(\"hi\")", "new_text": "x"})
	if terr == nil || terr.Code != tool.PatchCountMismatch || !strings.Contains(terr.Message, "2 times") {
		t.Fatalf("want PATCH_COUNT_MISMATCH, got %+v", terr)
	}
	// A dry run gives the diff and writes nothing.
	out, terr := patchBlock(t, s, map[string]any{"path": "main.go", "old_text": "fmt.Println(\"hi\")", "new_text": "log.Print(\"hi\")", "expected_replacements": 2, "dry_run": true})
	if terr != nil || out.ReplacementsMade != 0 || !strings.Contains(out.Diff, "+\tlog.Print(\"hi\")") || out.FirstLine != 4 {
		t.Fatalf("dry run: %+v %v", out, terr)
	}
	if b, _ := os.ReadFile(p); string(b) != src {
		t.Fatal("the dry run wrote")
	}
	out, terr = patchBlock(t, s, map[string]any{"path": "main.go", "old_text": "fmt.Println(\"hi\")", "new_text": "log.Print(\"hi\")", "expected_replacements": 2})
	if terr != nil || out.ReplacementsMade != 2 || out.NewSHA256 == "" || !strings.Contains(out.After, "log.Print") || !strings.Contains(out.Before, "fmt.Println") {
		t.Fatalf("replace: %+v %v", out, terr)
	}
	st, _ := os.Stat(p)
	if b, _ := os.ReadFile(p); strings.Count(string(b), "log.Print") != 2 || st.Mode().Perm() != 0o750 {
		t.Fatalf("after: %q mode %v", b, st.Mode())
	}
	// A stale sha256: nothing written.
	if _, terr := patchBlock(t, s, map[string]any{"path": "main.go", "old_text": "package main", "new_text": "package x", "expected_sha256": strings.Repeat("0", 64)}); terr == nil || terr.Code != tool.ShaMismatch {
		t.Fatalf("want SHA_MISMATCH, got %+v", terr)
	}
}

// A miss returns the closest text, where it is, and a diff showing what
// differs (here the indentation), so the next try can succeed.
func TestPatchBlockNearMiss(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 200 {
		b.WriteString("line number " + strings.Repeat("x", i%7) + "\n")
	}
	b.WriteString("func handler() {\n\tif err != nil {\n\t\treturn err\n\t}\n}\n")
	must(t, os.WriteFile(filepath.Join(dir, "a.go"), []byte(b.String()), 0o644))
	s := newSet(t, dir)
	_, terr := patchBlock(t, s, map[string]any{"path": "a.go", "old_text": "func handler() {\n    if err != nil {\n        return err\n    }\n}\n", "new_text": "x"})
	if terr == nil || terr.Code != tool.PatchRejected {
		t.Fatalf("want PATCH_REJECTED, got %+v", terr)
	}
	for _, want := range []string{"lines 201-205", "-    if err != nil {", "+\tif err != nil {"} {
		if !strings.Contains(terr.Message, want) {
			t.Errorf("near-miss message lacks %q:\n%s", want, terr.Message)
		}
	}
	if !strings.Contains(terr.Suggestion, "201-205") {
		t.Errorf("suggestion %q", terr.Suggestion)
	}
}

// A CRLF file stays CRLF when old_text and new_text are written with LF.
func TestPatchBlockKeepsCRLF(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "w.txt"), []byte("one\r\ntwo\r\nthree\r\n"), 0o644))
	if _, terr := patchBlock(t, newSet(t, dir), map[string]any{"path": "w.txt", "old_text": "two\nthree\n", "new_text": "2\n3\n4\n"}); terr != nil {
		t.Fatal(terr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "w.txt")); string(b) != "one\r\n2\r\n3\r\n4\r\n" {
		t.Fatalf("got %q", b)
	}
}
