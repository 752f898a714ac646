package fsroot

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A file name may hold any byte but "/" and NUL. Shown as it is, a name
// with a right-to-left override reads backwards ("evil\u202etxt.sh"
// looks like "evilhs.txt"), a control character can rewrite the agent's
// terminal or log, and a name that is not UTF-8 reaches the agent as
// U+FFFD and can no longer be named. Tools therefore show such names
// escaped, and accept the escaped form back:
//
//	\\      a backslash
//	\xNN    a byte that is not part of valid UTF-8, or a control character
//	\uNNNN  a bidirectional or other invisible formatting character
//
// A name without any of these, backslashes included, is shown as it is.
// A path given with a backslash is read escaped when every backslash in it
// starts one of these sequences, and literally otherwise.

// ShowName is name as tools show it: escaped when it must be.
func ShowName(name string) string {
	if !needsEscape(name) {
		return name
	}
	var b strings.Builder
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, name[i])
		case r == '\\':
			b.WriteString(`\\`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case invisible(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(name[i : i+size])
		}
		i += size
	}
	return b.String()
}

// needsEscape reports whether ShowName changes name. Its ASCII bytes are
// looked at one by one, and runes decoded only from the first byte that is
// not ASCII: a search shows thousands of plain names.
func needsEscape(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= utf8.RuneSelf {
			return runesNeedEscape(name[i:])
		}
		if c == '\\' || c < 0x20 || c == 0x7f {
			return true
		}
	}
	return false
}

// runesNeedEscape is needsEscape for a name that is not all ASCII.
func runesNeedEscape(name string) bool {
	if !utf8.ValidString(name) {
		return true
	}
	for _, r := range name {
		if r == '\\' || r < 0x20 || r == 0x7f || invisible(r) {
			return true
		}
	}
	return false
}

// invisible are the characters that change how a name reads without
// being seen: C1 controls, the bidirectional marks, embeddings, overrides
// and isolates, zero-width spaces and joiners other than in emoji
// sequences, and the line and paragraph separators.
func invisible(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200b, r == 0x200e, r == 0x200f, r == 0x2028, r == 0x2029, r == 0xfeff:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// unescapeName undoes ShowName's escapes in a path. ok is false when a
// backslash starts no escape, and the path is then meant literally.
func unescapeName(p string) (string, bool) {
	if !strings.Contains(p, `\`) {
		return p, true
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] != '\\' {
			b.WriteByte(p[i])
			continue
		}
		rest := p[i+1:]
		switch {
		case strings.HasPrefix(rest, `\`):
			b.WriteByte('\\')
			i++
		case len(rest) >= 3 && rest[0] == 'x':
			v, err := strconv.ParseUint(rest[1:3], 16, 8)
			if err != nil {
				return p, false
			}
			b.WriteByte(byte(v))
			i += 3
		case len(rest) >= 5 && rest[0] == 'u':
			v, err := strconv.ParseUint(rest[1:5], 16, 16)
			if err != nil {
				return p, false
			}
			b.WriteRune(rune(v))
			i += 5
		default:
			return p, false
		}
	}
	return b.String(), true
}
