package repl

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// clean turns raw terminal output into text a model can read: escape
// sequences (colours, cursor motion, titles) are removed, CRLF becomes LF,
// a lone CR or a backspace rewrites the current line as a terminal would,
// and other control bytes are dropped. It approximates a screen, it does
// not emulate one; proc_read with strip_ansi false returns the raw bytes.
func clean(b []byte) string {
	var out []byte
	lineStart := 0
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == 0x1b:
			n, _ := escapeLen(b[i:])
			i += n - 1
		case c == '\n':
			out = append(out, '\n')
			lineStart = len(out)
		case c == '\r':
			if i+1 < len(b) && b[i+1] != '\r' && b[i+1] != '\n' {
				out = out[:lineStart] // the line is about to be redrawn
			}
		case c == '\b':
			if len(out) > lineStart {
				_, size := utf8.DecodeLastRune(out[lineStart:])
				out = out[:len(out)-size]
			}
		case c == '\t' || c >= 0x20 && c != 0x7f:
			out = append(out, c)
		}
	}
	return strings.ToValidUTF8(string(out), "\uFFFD")
}

// escapeLen is the length of the escape sequence at the start of b (which
// begins with ESC) and whether it is complete. An incomplete one is the
// whole of b.
func escapeLen(b []byte) (int, bool) {
	if len(b) < 2 {
		return len(b), false
	}
	switch b[1] {
	case '[': // CSI: parameters 0x30-0x3f, intermediates 0x20-0x2f, a final 0x40-0x7e
		for i := 2; i < len(b); i++ {
			if b[i] >= 0x40 && b[i] <= 0x7e {
				return i + 1, true
			}
			if b[i] < 0x20 || b[i] > 0x3f {
				return i, true // malformed: drop what was read, keep the rest
			}
		}
		return len(b), false
	case ']', 'P', 'X', '^', '_': // strings ended by BEL or ST (ESC \)
		for i := 2; i < len(b); i++ {
			if b[i] == 0x07 {
				return i + 1, true
			}
			if b[i] == 0x1b && i+1 < len(b) && b[i+1] == '\\' {
				return i + 2, true
			}
		}
		return len(b), false
	}
	i := 1 // ESC, intermediates 0x20-0x2f, one final byte (ESC ( B, ESC =)
	for i < len(b) && b[i] >= 0x20 && b[i] <= 0x2f {
		i++
	}
	if i == len(b) {
		return len(b), false
	}
	return i + 1, true
}

// complete is how much of b can be handed out now: up to an escape
// sequence or a UTF-8 character that the next output will finish, so a
// reader paging by offsets never sees half of either.
func complete(b []byte) int {
	n := len(b)
	const maxEscape = 512 // longer "sequences" are garbage; let them through
	for i := n - 1; i >= 0 && i >= n-maxEscape; i-- {
		if b[i] == 0x1b {
			if _, ok := escapeLen(b[i:]); !ok {
				n = i
			}
			break
		}
	}
	for back := 1; back <= utf8.UTFMax && back <= n; back++ {
		c := b[n-back]
		if c < utf8.RuneSelf {
			break
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[n-back : n]) {
				n -= back
			}
			break
		}
	}
	return n
}

// promptRE matches the prompts of common REPLs at the end of their output:
// python (">>> ", "... "), IPython ("In [3]: ", "   ...: "), node and irb
// and sqlite3 ("> "), psql ("db=# ", "db-> "), and shells ("$ ", "# ").
var promptRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:>>> |\.\.\. |In \[\d+\]: |\.\.\.: |> |\$ |# )$`) })

// endsWithPrompt reports whether text's last line looks like a prompt
// waiting for input. Long lines are output, not prompts.
func endsWithPrompt(text string) bool {
	last := text[strings.LastIndexByte(text, '\n')+1:]
	return len(last) <= 120 && promptRE().MatchString(last)
}
