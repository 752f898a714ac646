package tool

import (
	"math/bits"
	"unicode/utf8"
)

// appendJSONString appends s as a JSON string exactly as encoding/json
// writes it without HTML escaping: '"' and '\\' escaped, control bytes as
// \b, \f, \n, \r, \t or \u00XX, invalid UTF-8 as \ufffd, and U+2028 and
// U+2029 as \u2028 and \u2029 (TestAppendJSONStringMatchesEncodingJSON
// holds it to that). It differs in speed only: eight bytes are checked at
// once while none needs escaping, which is nearly all of a line of code or
// a path, where encoding/json checks one byte at a time, and the plain
// bytes before one that needs escaping are skipped together.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			if i = skipPlain(s, i); i == len(s) {
				break
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

// skipPlain returns the index of the first byte of s at or after i that
// may need a look (needsLook8), checking eight bytes at a time: the plain
// bytes before it are skipped together, where a byte-by-byte loop would
// test each. Fewer than eight bytes from the end it stops and leaves
// them to its caller's look, one at a time (callers test i+8 <= len(s)
// first: not a call for each of the last bytes of every string). appendJSONString writes and
// JSONStringLen counts a string this way, so that both make the same
// choice for every byte.
func skipPlain(s string, i int) int {
	for i+8 <= len(s) {
		_ = s[i+7]
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if look := needsLook8(x); look != 0 {
			return i + bits.TrailingZeros64(look)/8
		}
		i += 8
	}
	return i
}

// needsLook8 marks, in the high bit of each of the eight bytes packed in x
// (the first in the low byte), the bytes that need a look: not ASCII,
// below 0x20, '"' or '\\'. It uses the bit tricks for "has a byte less
// than n" and "has a zero byte". Those may also mark a plain byte above
// one that needs a look (a borrow carries upwards), never below it: zero
// says that no byte needs one, and the lowest mark is exact, which is all
// appendJSONString reads of it.
func needsLook8(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	hasZero := func(v uint64) uint64 { return (v - ones) & ^v & highs }
	control := (x - ones*0x20) & ^x & highs
	quote := hasZero(x ^ (ones * '"'))
	backslash := hasZero(x ^ (ones * '\\'))
	return (x & highs) | control | quote | backslash
}
