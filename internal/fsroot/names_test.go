package fsroot

import (
	"os"
	"path/filepath"
	"testing"
)

func TestShowName(t *testing.T) {
	tests := []struct{ name, shown string }{
		{"plain.txt", "plain.txt"},
		{"naïve café.md", "naïve café.md"},
		{"emoji 👍🏽.png", "emoji 👍🏽.png"},
		{"evil\u202etxt.sh", `evil\u202etxt.sh`},
		{"bell\a\nnewline", `bell\x07\x0anewline`},
		{"latin1-\xe9t\xe9", `latin1-\xe9t\xe9`},
		{`back\slash`, `back\\slash`},
		{"isolate\u2066x\u2069", `isolate\u2066x\u2069`},
		{"c1\u0085", `c1\u0085`},
	}
	for _, tc := range tests {
		got := ShowName(tc.name)
		if got != tc.shown {
			t.Errorf("ShowName(%q) = %q, want %q", tc.name, got, tc.shown)
		}
		back, ok := unescapeName(got)
		if !ok || back != tc.name {
			t.Errorf("unescapeName(%q) = %q, %v; want %q back", got, back, ok, tc.name)
		}
	}
	for _, literal := range []string{`C:\path`, `a\q`, `trailing\`, `\x4`, `\u12`} {
		if got, ok := unescapeName(literal); ok || got != literal {
			t.Errorf("unescapeName(%q) = %q, %v; a backslash that starts no escape is literal", literal, got, ok)
		}
	}
}

func FuzzShowName(f *testing.F) {
	for _, s := range []string{"a", "evil\u202etxt", "\xff\xfe", `a\\b`, "\x00\x1f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		shown := ShowName(name)
		if needsEscape(shown) && shown != name {
			// An escaped form holds backslashes by construction; nothing
			// else in it may need escaping.
			for _, r := range shown {
				if r != '\\' && (r < 0x20 || r == 0x7f || invisible(r)) {
					t.Fatalf("ShowName(%q) = %q still holds %U", name, shown, r)
				}
			}
		}
		if back, ok := unescapeName(shown); shown != name && (!ok || back != name) {
			t.Fatalf("ShowName(%q) = %q does not read back: %q, %v", name, shown, back, ok)
		}
	})
}

// A name that is not UTF-8, or that holds an override, is addressed by the
// escaped form the listing shows.
func TestResolveEscapedName(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"latin1-\xe9t\xe9.txt", "evil\u202etxt.sh", `back\slash`} {
		must(t, os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644))
		s := newSet(t, Spec{Path: dir})
		l, err := s.Resolve(ShowName(name))
		if err != nil {
			t.Fatalf("%q: %v", ShowName(name), err)
		}
		if _, err := l.Stat(); err != nil || l.Rel != name {
			t.Errorf("%q resolved to %q: %v", ShowName(name), l.Rel, err)
		}
	}
	s := newSet(t, Spec{Path: dir})
	must(t, os.WriteFile(filepath.Join(dir, `lit\q`), []byte("x"), 0o644))
	if l, err := s.Resolve(`lit\q`); err != nil || l.Rel != `lit\q` {
		t.Errorf(`a backslash starting no escape is taken literally: %+v %v`, l, err)
	}
}

// TestNeedsEscapeLooksAtEveryRune: the ASCII fast path says what a look at
// every rune of the name (runesNeedEscape, which it hands the rest to) says,
// for names plain, escaped anywhere, or not UTF-8 after a plain prefix.
func TestNeedsEscapeLooksAtEveryRune(t *testing.T) {
	parts := []string{"", "a", "plain_test.go", `\`, "\x00", "\x1f", "\x7f", "é", "\u202e", "\u200b", "\u2028", "\xff", "\xc3", "日本", "\u0085"}
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range parts {
				name := a + b + c
				if got, want := needsEscape(name), runesNeedEscape(name); got != want {
					t.Errorf("needsEscape(%q) = %v, want %v", name, got, want)
				}
			}
		}
	}
}
