package fsroot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/tool"
)

func newSet(t *testing.T, specs ...Spec) *Set {
	t.Helper()
	s, err := Open(specs)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func code(err error) tool.Code {
	if err == nil {
		return ""
	}
	return tool.AsError(err).Code
}

func TestResolve(t *testing.T) {
	base := t.TempDir()
	a := filepath.Join(base, "data")
	ro := filepath.Join(a, "ro")
	real := filepath.Join(base, "real")
	for _, d := range []string{a + "/sub", a + "/deep/er", ro, filepath.Join(base, "data2"), real} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	must(t, os.WriteFile(filepath.Join(a, "file.txt"), nil, 0o644))
	must(t, os.Symlink("deep/er", filepath.Join(a, "link")))
	must(t, os.Symlink(real, filepath.Join(base, "alias")))
	s := newSet(t, Spec{Path: a}, Spec{Path: ro, ReadOnly: true}, Spec{Path: real, Alias: filepath.Join(base, "alias")})
	tests := []struct {
		given, root, rel string
		code             tool.Code
	}{
		{"x.txt", a, "x.txt", ""},
		{".", a, ".", ""},
		{a, a, ".", ""},
		{a + "/sub/../x", a, "x", ""},
		{a + "//sub/./x", a, "sub/x", ""},
		{a + "/nosuch/../x", "", "", tool.NotFound}, // as the kernel: the directory must exist
		{"link/../x", a, "deep/x", ""},              // ".." after a link climbs from its target
		{"link/..", a, "deep", ""},
		{ro + "/f", ro, "f", ""}, // the most specific root wins
		{ro + "/../x", a, "x", ""},
		{ro + "/../../x", "", "", tool.InvalidPath},
		{base + "/alias/f", real, "f", ""}, // a root named through a link, as the operator gave it
		{real + "/f", real, "f", ""},
		{"file.txt/", "", "", tool.NotADirectory},
		{"sub/", a, "sub", ""},
		{"   ", "", "", tool.InvalidPath},
		{"\t\n", "", "", tool.InvalidPath},
		{strings.Repeat("d/", 2048), "", "", tool.InvalidPath}, // longer than PATH_MAX
		{"../data2/x", "", "", tool.InvalidPath},
		{base + "/data2/x", "", "", tool.InvalidPath}, // a sibling whose name extends the root's
		{"/etc/passwd", "", "", tool.InvalidPath},
		{"a\x00b", "", "", tool.InvalidPath},
		{"", "", "", tool.InvalidPath},
	}
	for _, tc := range tests {
		t.Run(tc.given, func(t *testing.T) {
			l, err := s.Resolve(tc.given)
			if code(err) != tc.code {
				t.Fatalf("code %q, want %q (%v)", code(err), tc.code, err)
			}
			if err == nil && (l.Root.Path != tc.root || l.Rel != tc.rel) {
				t.Errorf("got %s + %s, want %s + %s", l.Root.Path, l.Rel, tc.root, tc.rel)
			}
		})
	}
	if _, err := s.Resolve(strings.Repeat("x", 5000)); err == nil || len(err.Error()) > 400 {
		t.Errorf("an over-long path must be refused with a short message: %d bytes", len(err.Error()))
	}
	l, _ := s.Resolve(ro + "/f")
	if _, err := l.Write([]byte("x"), WriteOptions{}); code(err) != tool.ReadOnlyMode {
		t.Errorf("write into a read-only root: %v", err)
	}
}

func TestNarrow(t *testing.T) {
	a := t.TempDir()
	if err := os.MkdirAll(filepath.Join(a, "sub", "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(a, "out")); err != nil {
		t.Fatal(err)
	}
	s := newSet(t, Spec{Path: a})
	n := s.Narrow([]string{filepath.Join(a, "sub"), "/etc", filepath.Join(a, "out"), "relative"})
	defer n.Close()
	if len(n.Roots()) != 1 || n.Roots()[0].Path != filepath.Join(a, "sub") {
		t.Fatalf("narrowed roots: %+v", n.Roots())
	}
	if _, err := n.Resolve(filepath.Join(a, "x")); code(err) != tool.InvalidPath {
		t.Errorf("a path outside the client's root: %v", err)
	}
	if _, err := n.Resolve("deep"); err != nil {
		t.Errorf("relative to the narrowed root: %v", err)
	}
	wide := s.Narrow([]string{"/"})
	if len(wide.Roots()) != 1 || wide.Roots()[0].Path != a {
		t.Errorf("a wider client root must not widen: %+v", wide.Roots())
	}
}
