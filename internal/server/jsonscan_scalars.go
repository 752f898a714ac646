package server

import "fmt"

// numStep is where a number stands, after RFC 8259 section 6's grammar.
type numStep uint8

const (
	numMinus   numStep = iota // after '-'
	numZero                   // after a leading 0
	numInt                    // in the integer digits
	numDot                    // after '.'
	numFrac                   // in the fraction digits
	numExp                    // after 'e'
	numExpSign                // after the exponent's sign
	numExpInt                 // in the exponent digits
)

// str scans string bytes from p[i:] and returns the index it stopped at:
// the end of p, or just past the closing quote.
func (s *jsonScanner) str(p []byte, i int) int {
	for ; i < len(p); i++ {
		c := p[i]
		switch {
		case s.due > 0:
			if c < s.lo || c > s.hi {
				s.fail("invalid UTF-8 in a string", s.off+i)
				return i
			}
			s.due, s.lo, s.hi = s.due-1, 0x80, 0xbf
		case s.esc < 0:
			switch c {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.esc = 0
			case 'u':
				s.esc = 4
			default:
				s.failByte(i, "an escape character")
				return i
			}
		case s.esc > 0:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				s.failByte(i, "a hex digit")
				return i
			}
			s.esc--
		case c == '"':
			s.stringEnd(i)
			return i + 1
		case c == '\\':
			s.esc = -1
		case c < 0x20:
			s.fail(fmt.Sprintf("control character 0x%02x in a string (escape it)", c), s.off+i)
			return i
		case c >= 0x80:
			if !s.utf8Lead(c) {
				s.fail("invalid UTF-8 in a string", s.off+i)
				return i
			}
		default:
			// Plain ASCII, the bulk of any large message: skip the run.
			for i+1 < len(p) && p[i+1] >= 0x20 && p[i+1] < 0x80 && p[i+1] != '"' && p[i+1] != '\\' {
				i++
			}
		}
	}
	return i
}

// utf8Lead starts a multi-byte UTF-8 sequence, setting the range of its
// next byte as RFC 3629 section 4 does, which leaves out overlong forms and
// surrogates.
func (s *jsonScanner) utf8Lead(c byte) bool {
	s.lo, s.hi = 0x80, 0xbf
	switch {
	case c >= 0xc2 && c <= 0xdf:
		s.due = 1
	case c == 0xe0:
		s.due, s.lo = 2, 0xa0
	case c == 0xed:
		s.due, s.hi = 2, 0x9f
	case c >= 0xe1 && c <= 0xef:
		s.due = 2
	case c == 0xf0:
		s.due, s.lo = 3, 0x90
	case c == 0xf4:
		s.due, s.hi = 3, 0x8f
	case c >= 0xf1 && c <= 0xf3:
		s.due = 3
	default:
		return false
	}
	return true
}

// stringEnd handles the closing quote at chunk index i.
func (s *jsonScanner) stringEnd(i int) {
	if !s.inKey {
		s.valueEnd(s.off + i + 1)
		return
	}
	if s.capturing == captureKey {
		s.keep(i)
	}
	s.keyEnd()
}

// number scans number bytes from p[i:] and returns the index it stopped
// at: the end of p, or the first byte after the number.
func (s *jsonScanner) number(p []byte, i int) int {
	for ; i < len(p); i++ {
		c := p[i]
		digit := c >= '0' && c <= '9'
		switch s.num {
		case numMinus:
			switch {
			case c == '0':
				s.num = numZero
			case digit:
				s.num = numInt
			default:
				s.failByte(i, "a digit")
				return i
			}
		case numZero, numInt, numFrac:
			switch {
			case digit && s.num != numZero:
			case c == '.' && s.num != numFrac:
				s.num = numDot
			case c == 'e' || c == 'E':
				s.num = numExp
			default:
				s.valueEnd(s.off + i)
				return i
			}
		case numDot:
			if !digit {
				s.failByte(i, "a digit")
				return i
			}
			s.num = numFrac
		case numExp:
			switch {
			case c == '+' || c == '-':
				s.num = numExpSign
			case digit:
				s.num = numExpInt
			default:
				s.failByte(i, "a digit")
				return i
			}
		case numExpSign:
			if !digit {
				s.failByte(i, "a digit")
				return i
			}
			s.num = numExpInt
		case numExpInt:
			if !digit {
				s.valueEnd(s.off + i)
				return i
			}
		}
	}
	return i
}
