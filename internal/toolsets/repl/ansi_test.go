package repl

import "testing"

func TestClean(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"crlf", "a\r\nb\r\n", "a\nb\n"},
		{"colour", "\x1b[1;31merror\x1b[0m ok", "error ok"},
		{"title", "\x1b]0;python\x07>>> ", ">>> "},
		{"charset and keypad", "\x1b(B\x1b=x", "x"},
		{"cr redraw", "10%\r20%\r30%", "30%"},
		{"trailing cr", "done\r", "done"},
		{"backspace", "abc\b \bd", "abd"},
		{"bracketed paste off", "\x1b[?2004l>>> ", ">>> "},
		{"bell and nul", "a\x07\x00b", "ab"},
		{"utf8", "héllo\r\n", "héllo\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := clean([]byte(tc.in)); got != tc.want {
				t.Errorf("clean(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestComplete(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"abc", 3},
		{"abc\x1b", 3},
		{"abc\x1b[1;3", 3},
		{"abc\x1b[1;31m", 10},
		{"abc\x1b]0;title", 3},
		{"ab\xc3", 2},     // first byte of é
		{"ab\xe2\x82", 2}, // two of €'s three bytes
		{"ab\xe2\x82\xac", 5},
	}
	for _, tc := range tests {
		if got := complete([]byte(tc.in)); got != tc.want {
			t.Errorf("complete(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func TestEndsWithPrompt(t *testing.T) {
	for _, s := range []string{"Python 3\n>>> ", "... ", "> ", "sqlite> ", "In [12]: ", "postgres=# ", "irb(main):001:0> "} {
		if !endsWithPrompt(s) {
			t.Errorf("%q: not seen as a prompt", s)
		}
	}
	for _, s := range []string{"4\n", ">>> 2+2\n4", "loading...", ""} {
		if endsWithPrompt(s) {
			t.Errorf("%q: seen as a prompt", s)
		}
	}
}

func TestKeyBytes(t *testing.T) {
	for name, want := range map[string]string{"ctrl-c": "\x03", "CTRL-D": "\x04", "up": "\x1b[A", "tab": "\t", `ctrl-\`: "\x1c"} {
		if got, err := keyBytes(name); err != nil || got != want {
			t.Errorf("keyBytes(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	for _, name := range []string{"ctrl-1", "f13", ""} {
		if _, err := keyBytes(name); err == nil {
			t.Errorf("keyBytes(%q): no error", name)
		}
	}
}

func FuzzClean(f *testing.F) {
	f.Add([]byte("\x1b[1;31mred\x1b[0m\r\nnext\rover\b"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_ = clean(b)
		if n := complete(b); n < 0 || n > len(b) {
			t.Fatalf("complete = %d for %d bytes", n, len(b))
		}
	})
}
