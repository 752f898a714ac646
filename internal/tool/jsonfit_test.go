package tool

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// encodedLen is the ground truth: what MarshalJSON makes of s.
func encodedLen(t testing.TB, s string) int {
	t.Helper()
	b, err := MarshalJSON(s)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

var jsonFitCases = []string{
	"",
	"plain ascii",
	"quotes \" and \\ backslashes",
	"\b\f\n\r\t\x00\x01\x1f\x7f",
	"é中🙂 multi-byte",
	"\u2028\u2029 line separators",
	"<html> & </html>",
	"bad \xff\xfe utf-8 \xe4\xb8 cut",
	"line 1\nline \"2\"\nlast without newline",
}

func TestJSONStringLen(t *testing.T) {
	for _, s := range jsonFitCases {
		if got, want := JSONStringLen(s), encodedLen(t, s); got != want {
			t.Errorf("JSONStringLen(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestFitJSONString(t *testing.T) {
	for _, s := range jsonFitCases {
		for _, lines := range []bool{false, true} {
			for budget := 0; budget <= encodedLen(t, s)+2; budget++ {
				checkFit(t, s, budget, lines)
			}
		}
	}
}

// checkFit asserts that the prefix FitJSONString picks fits the budget,
// ends where it must, and that one more rune (or line) would not fit.
func checkFit(t testing.TB, s string, budget int, lines bool) {
	t.Helper()
	n := FitJSONString(s, budget, lines)
	p := s[:n]
	if n > 0 && encodedLen(t, p) > budget {
		t.Fatalf("FitJSONString(%q, %d, %v) = %q: %d bytes encoded", s, budget, lines, p, encodedLen(t, p))
	}
	bounds := runeBounds(s)
	if !bounds[n] {
		t.Fatalf("FitJSONString(%q, %d, %v) = %d: inside a rune", s, budget, lines, n)
	}
	if lines && n > 0 && n < len(s) && s[n-1] != '\n' {
		t.Fatalf("FitJSONString(%q, %d, %v) = %q: not whole lines", s, budget, lines, p)
	}
	if n == len(s) {
		return
	}
	next := n + 1
	for !bounds[next] {
		next++
	}
	if lines {
		if i := strings.IndexByte(s[n:], '\n'); i >= 0 {
			next = n + i + 1
		} else {
			next = len(s)
		}
	}
	if encodedLen(t, s[:next]) <= budget {
		t.Fatalf("FitJSONString(%q, %d, %v) = %q, but %q fits too", s, budget, lines, p, s[:next])
	}
}

// runeBounds marks the offsets of s where a rune starts, as the encoder
// walks it: each byte that is not part of valid UTF-8 is a rune of its own.
func runeBounds(s string) map[int]bool {
	b := map[int]bool{0: true}
	for i := 0; i < len(s); {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
		b[i] = true
	}
	return b
}

func FuzzFitJSONString(f *testing.F) {
	for _, s := range jsonFitCases {
		f.Add(s, 20, false)
	}
	f.Fuzz(func(t *testing.T, s string, budget int, lines bool) {
		if budget < 0 || budget > 4*len(s)+8 {
			return
		}
		if got, want := JSONStringLen(s), encodedLen(t, s); got != want {
			t.Fatalf("JSONStringLen(%q) = %d, want %d", s, got, want)
		}
		checkFit(t, s, budget, lines)
	})
}
