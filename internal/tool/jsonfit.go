package tool

import "unicode/utf8"

// A page of text must fit the output cap as JSON, not as bytes: a quote, a
// backslash or a newline takes two bytes in a JSON string, a control byte
// six (\u001f), and so do U+2028, U+2029 and each byte that is not UTF-8
// (\ufffd). Content of such characters can more than double on the way to
// the client, so the functions here measure the encoding MarshalJSON gives
// (encoding/json without HTML escaping) instead of guessing a margin.

// jsonByteLen is the encoded length of each ASCII byte inside a JSON string.
var jsonByteLen = func() (t [utf8.RuneSelf]uint8) {
	for b := range t {
		switch {
		case b == '"', b == '\\', b == '\b', b == '\f', b == '\n', b == '\r', b == '\t':
			t[b] = 2
		case b < 0x20:
			t[b] = 6
		default:
			t[b] = 1
		}
	}
	return t
}()

// jsonRuneLen is the encoded length of the rune at the start of s, and the
// bytes it takes in s.
func jsonRuneLen(s string) (encoded, width int) {
	if s[0] < utf8.RuneSelf {
		return int(jsonByteLen[s[0]]), 1
	}
	r, w := utf8.DecodeRuneInString(s)
	if (r == utf8.RuneError && w == 1) || r == '\u2028' || r == '\u2029' {
		return 6, w
	}
	return w, w
}

// JSONStringLen is the length of s as a JSON string, quotes included.
// ASCII is measured inline: fs_read measures every line it returns.
func JSONStringLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		// Plain bytes counted together, as appendJSONString skips them: a
		// handle of 2,500 hits is sized this way before its answer.
		if i+8 <= len(s) {
			j := skipPlain(s, i)
			n += j - i
			if i = j; i == len(s) {
				break
			}
		}
		if c := s[i]; c < utf8.RuneSelf {
			n += int(jsonByteLen[c])
			i++
			continue
		}
		e, w := jsonRuneLen(s[i:])
		n += e
		i += w
	}
	return n
}

// FitJSONString returns the length of the longest prefix of s that ends on
// a rune boundary and takes at most budget bytes as a JSON string, quotes
// included. With wholeLines, the prefix also ends just after a '\n' unless
// it is all of s.
func FitJSONString(s string, budget int, wholeLines bool) int {
	n, fit := 2, 0
	if n > budget {
		return 0
	}
	for i := 0; i < len(s); {
		c := s[i]
		e, w := int(jsonByteLen[c&0x7f]), 1 // the common case, inline
		if c >= utf8.RuneSelf {
			e, w = jsonRuneLen(s[i:])
		}
		if n+e > budget {
			return fit
		}
		n += e
		i += w
		if !wholeLines || c == '\n' || i == len(s) {
			fit = i
		}
	}
	return fit
}
