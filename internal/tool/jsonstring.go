package tool

import "unicode/utf8"

// appendJSONString appends s as a JSON string exactly as encoding/json
// writes it without HTML escaping: '"' and '\\' escaped, control bytes as
// \b, \f, \n, \r, \t or \u00XX, invalid UTF-8 as \ufffd, and U+2028 and
// U+2029 as \u2028 and \u2029 (TestAppendJSONStringMatchesEncodingJSON
// holds it to that). It differs in speed only: eight bytes are checked at
// once while none needs escaping, which is nearly all of a line of code or
// a path, where encoding/json checks one byte at a time.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			_ = s[i+7]
			x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
				uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
			if plainASCII8(x) {
				i += 8
				continue
			}
		}
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"

// plainASCII8 reports whether none of the eight bytes packed in x needs a
// look: each is ASCII, at least 0x20, and neither '"' nor '\\'. It uses
// the bit tricks for "has a byte less than n" and "has a zero byte", which
// are exact as a yes or no.
func plainASCII8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	hasZero := func(v uint64) uint64 { return (v - ones) & ^v & highs }
	control := (x - ones*0x20) & ^x & highs
	quote := hasZero(x ^ (ones * '"'))
	backslash := hasZero(x ^ (ones * '\\'))
	return (x&highs)|control|quote|backslash == 0
}
