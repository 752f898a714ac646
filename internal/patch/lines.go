// Package patch places and applies diff hunks and exact text replacements
// to file contents in memory. It is pure (bytes in, bytes out) so that the
// edit toolset can check every change of every file before it writes any.
package patch

import "strings"

// Line is one line of a file: its text without the terminator, and the
// terminator itself ("\n", "\r\n", or "" for a last line without one).
type Line struct {
	Text string
	EOL  string
}

// Split cuts content into lines, keeping each line's terminator.
func Split(b []byte) []Line {
	s := string(b)
	var out []Line
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, Line{Text: s})
			break
		}
		text, eol := s[:i], "\n"
		if strings.HasSuffix(text, "\r") {
			text, eol = text[:len(text)-1], "\r\n"
		}
		out = append(out, Line{Text: text, EOL: eol})
		s = s[i+1:]
	}
	return out
}

// Join puts lines back together.
func Join(lines []Line) []byte {
	n := 0
	for _, l := range lines {
		n += len(l.Text) + len(l.EOL)
	}
	b := make([]byte, 0, n)
	for _, l := range lines {
		b = append(b, l.Text...)
		b = append(b, l.EOL...)
	}
	return b
}

// DominantEOL is the terminator most lines use: what added lines get, so a
// CRLF file stays CRLF when the diff was written with LF.
func DominantEOL(lines []Line) string {
	crlf, lf := 0, 0
	for _, l := range lines {
		switch l.EOL {
		case "\r\n":
			crlf++
		case "\n":
			lf++
		}
	}
	if crlf > lf {
		return "\r\n"
	}
	return "\n"
}

// normalizeWS is a line with runs of white space made one space and the
// ends trimmed, for whitespace-insensitive placement.
func normalizeWS(s string) string { return strings.Join(strings.Fields(s), " ") }
