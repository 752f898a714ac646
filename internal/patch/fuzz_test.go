package patch

import (
	"bytes"
	"testing"
)

// Lines round-trip exactly, whatever the bytes.
func FuzzSplitJoin(f *testing.F) {
	f.Add([]byte("a\nb\r\nc"))
	f.Add([]byte("\r\n\n\r"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got := Join(Split(b)); !bytes.Equal(got, b) {
			t.Fatalf("Join(Split(%q)) = %q", b, got)
		}
	})
}

// The diff parser never panics, and what it returns is well formed.
func FuzzParse(f *testing.F) {
	f.Add("--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n")
	f.Add("diff --git a/x b/y\nsimilarity index 90%\nrename from x\nrename to y\n--- a/x\n+++ b/y\n@@ -1 +1 @@\n-a\n+b\n\\ No newline at end of file\n")
	f.Add("--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+n\n")
	f.Fuzz(func(t *testing.T, text string) {
		files, err := Parse(text)
		if err != nil {
			return
		}
		for _, fd := range files {
			for _, h := range fd.Hunks {
				for _, l := range h.Lines {
					if l.Op != Context && l.Op != Add && l.Op != Delete {
						t.Fatalf("line op %q", l.Op)
					}
				}
			}
		}
	})
}

// The hunk locator never panics nor writes outside the lines it was given,
// whatever the file and the hunks; a diff that places keeps every line of
// the file it does not touch.
func FuzzApply(f *testing.F) {
	f.Add([]byte("a\nb\nc\nd\n"), "--- a/x\n+++ b/x\n@@ -2,2 +2,2 @@\n b\n-c\n+C\n")
	f.Add([]byte("x\ny"), "--- a/x\n+++ b/x\n@@ -40,1 +40,1 @@\n-y\n\\ No newline at end of file\n+z\n")
	f.Add([]byte(""), "--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+n\n")
	f.Fuzz(func(t *testing.T, content []byte, diff string) {
		files, err := Parse(diff)
		if err != nil || len(files) == 0 {
			return
		}
		lines := Split(content)
		out, places, rejects := Apply(lines, files[0].Hunks)
		if len(rejects) > 0 {
			if out != nil {
				t.Fatal("a rejected diff returned content")
			}
			return
		}
		if len(places) != len(files[0].Hunks) {
			t.Fatalf("%d hunks, %d placements", len(files[0].Hunks), len(places))
		}
		_ = Join(out)
	})
}

// FindNearMiss never panics and reports lines inside the file.
func FuzzNearMiss(f *testing.F) {
	f.Add([]byte("a\n\tb\nc\n"), "  b\n")
	f.Fuzz(func(t *testing.T, content []byte, text string) {
		nm, ok := FindNearMiss(content, text)
		if ok && (nm.StartLine < 1 || nm.EndLine > len(Split(content)) || nm.StartLine > nm.EndLine) {
			t.Fatalf("near miss %+v outside a %d-line file", nm, len(Split(content)))
		}
	})
}
