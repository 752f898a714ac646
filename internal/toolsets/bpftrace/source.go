package bpftrace

import (
	"regexp"
	"strings"
	"sync"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// The program text is checked before bpftrace sees it, because bpftrace
// acts on some of it while only checking (-d): clang reads every #include'd
// file and quotes its words in its errors, and a tracepoint's category and
// event name the format file it reads (tracepoint:../../x:ev reads x/ev/format
// anywhere). Everything else is judged on bpftrace's own reading of the
// program (see dump.go), which spelling cannot change; this scan only has to
// keep to the text clang sees and to what bpftrace prints back verbatim.
//
// The scan follows bpftrace 0.17's lexer (src/lexer.l): "//" and "/* */"
// comments, "..." strings with backslash escapes that end at a newline, and a
// directive from "#" to the end of its line. Inside struct definitions
// bpftrace passes the text to clang untouched, so the scan also refuses what
// clang alone reads differently: character literals ('/*'), a backslash
// outside a string (line splices), "%:" (the digraph of #), _Pragma, and
// control characters such as a carriage return (a line end to clang, not to
// bpftrace's "//").

var (
	// includeLine is the one form of #include accepted: a system header by
	// a plain relative name, as bpftrace's tools write <linux/sched.h>.
	includeLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[ \t]*#[ \t]*include[ \t]*<[A-Za-z0-9_][A-Za-z0-9_./+-]*>[ \t]*$`)
	})
	// defineLine is a constant or a small macro of identifiers, numbers and
	// operators: no strings, no paths, no comments, no continuation.
	defineLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[ \t]*#[ \t]*define[ \t]+[A-Za-z_][A-Za-z0-9_]*(\([A-Za-z0-9_, \t]*\))?([ \t]+` + plainExpr + `)?$`)
	})
	// conditionalLine is the rest of what bpftrace's own tools write
	// (#ifndef BPFTRACE_HAVE_BTF ... #endif), conditions being plain
	// expressions as in defineLine.
	conditionalLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[ \t]*#[ \t]*((ifdef|ifndef|undef)[ \t]+[A-Za-z_][A-Za-z0-9_]*|(if|elif)[ \t]+` + plainExpr + `|else|endif)[ \t]*$`)
	})
)

// plainExpr is identifiers, numbers and operators: no quotes, slashes,
// backslashes or '#', so no file name, comment, string or continuation.
const plainExpr = `[A-Za-z0-9_ \t()+*%<>=!&|^~,?:\[\]-]*`

// sourceRefusal is a construct the scan refuses, with the line it is on.
type sourceRefusal struct {
	line int
	what string // what was found, for the message
	text string // the program's line, quoted clipped
}

// checkSource refuses the constructs described above with a tool error
// naming the line; nil means bpftrace may check the program.
func checkSource(prog string) error {
	r := scanSource(prog)
	if r == nil {
		return nil
	}
	return tool.Errorf(tool.CommandNotAllowed, "line %d: %s (in %q)", r.line, r.what, tool.Clip(r.text)).
		WithSuggestion("Use BTF types (bpftrace knows the kernel's structs) or #include <linux/header.h>; #define and #if take identifiers, numbers and operators; probe names take no '..' or escapes.")
}

// scanSource is checkSource's pure part.
func scanSource(prog string) *sourceRefusal {
	sc := scanner{src: prog, line: 1, lineStart: 0}
	return sc.run()
}

type scanner struct {
	src       string
	i         int
	line      int
	lineStart int // offset of the current line's first byte
	depth     int // braces open in code; 0 between probes (names, predicates)
}

func (sc *scanner) refuse(what string) *sourceRefusal {
	end := strings.IndexByte(sc.src[sc.lineStart:], '\n')
	text := sc.src[sc.lineStart:]
	if end >= 0 {
		text = text[:end]
	}
	return &sourceRefusal{line: sc.line, what: what, text: text}
}

// newline moves past a '\n' at sc.i.
func (sc *scanner) newline() {
	sc.i++
	sc.line++
	sc.lineStart = sc.i
}

func (sc *scanner) run() *sourceRefusal {
	for j := 0; j < len(sc.src); j++ {
		if c := sc.src[j]; (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f {
			sc.i = j
			sc.advanceLinesTo(j)
			return sc.refuse("a control character (only text, tabs and newlines are accepted)")
		}
	}
	for sc.i < len(sc.src) {
		c := sc.src[sc.i]
		switch {
		case c == '\n':
			sc.newline()
		case strings.HasPrefix(sc.src[sc.i:], "//"):
			sc.skipToLineEnd()
		case strings.HasPrefix(sc.src[sc.i:], "/*"):
			if r := sc.blockComment(); r != nil {
				return r
			}
		case c == '"':
			if r := sc.str(); r != nil {
				return r
			}
		case c == '#':
			if r := sc.hash(); r != nil {
				return r
			}
		case c == '{':
			sc.depth++
			sc.i++
		case c == '}':
			sc.depth--
			sc.i++
		case c == '\'':
			return sc.refuse("a character literal")
		case c == '\\':
			return sc.refuse("a backslash outside a string")
		case strings.HasPrefix(sc.src[sc.i:], "%:"):
			return sc.refuse(`"%:", the digraph of '#'`)
		case strings.HasPrefix(sc.src[sc.i:], ".."):
			return sc.refuse(`'..' (a probe name or path may not climb out of its directory)`)
		case isIdentStart(c):
			j := sc.i
			for j < len(sc.src) && isIdentPart(sc.src[j]) {
				j++
			}
			if sc.src[sc.i:j] == "_Pragma" {
				return sc.refuse("_Pragma, a preprocessor directive")
			}
			sc.i = j
		default:
			sc.i++
		}
	}
	return nil
}

// advanceLinesTo counts the lines up to offset j, for a message.
func (sc *scanner) advanceLinesTo(j int) {
	sc.line = 1 + strings.Count(sc.src[:j], "\n")
	sc.lineStart = strings.LastIndexByte(sc.src[:j], '\n') + 1
}

func (sc *scanner) skipToLineEnd() {
	for sc.i < len(sc.src) && sc.src[sc.i] != '\n' {
		sc.i++
	}
}

func (sc *scanner) blockComment() *sourceRefusal {
	start := sc.line
	for sc.i += 2; sc.i < len(sc.src); {
		switch {
		case strings.HasPrefix(sc.src[sc.i:], "*/"):
			sc.i += 2
			return nil
		case sc.src[sc.i] == '\n':
			sc.newline()
		default:
			sc.i++
		}
	}
	sc.line = start
	return sc.refuse("a comment that never ends")
}

// str moves past a string literal. Between probes (a probe's name, its
// predicate) bpftrace prints a quoted name back as it is, so an escape
// there could forge a line of the listing the check reads: refused, as
// '..' is.
func (sc *scanner) str() *sourceRefusal {
	top := sc.depth <= 0
	for sc.i++; sc.i < len(sc.src); sc.i++ {
		switch c := sc.src[sc.i]; {
		case c == '"':
			sc.i++
			return nil
		case c == '\n':
			return nil // unterminated: bpftrace reports it, the scan goes on
		case c == '\\':
			if top {
				return sc.refuse("an escape in a string outside a probe's body")
			}
			if sc.i+1 < len(sc.src) && sc.src[sc.i+1] == '\n' {
				return sc.refuse("a backslash at the end of a line")
			}
			sc.i++
		case top && strings.HasPrefix(sc.src[sc.i:], ".."):
			return sc.refuse(`'..' in a string outside a probe's body`)
		}
	}
	return nil
}

// hash judges a '#': bpftrace's "#!" comment at the start of a line, "$#"
// (the count of positional parameters), or a directive, which must be an
// accepted #include or #define on a line of its own.
func (sc *scanner) hash() *sourceRefusal {
	if sc.i == sc.lineStart && strings.HasPrefix(sc.src[sc.i:], "#!") {
		sc.skipToLineEnd()
		return nil
	}
	if sc.i > 0 && sc.src[sc.i-1] == '$' {
		sc.i++
		return nil
	}
	if strings.TrimLeft(sc.src[sc.lineStart:sc.i], " \t") != "" {
		return sc.refuse("'#' after other text on its line")
	}
	end := strings.IndexByte(sc.src[sc.i:], '\n')
	if end < 0 {
		end = len(sc.src) - sc.i
	}
	directive := sc.src[sc.lineStart : sc.i+end]
	switch {
	case includeLine().MatchString(directive) && !strings.Contains(directive, ".."):
	case defineLine().MatchString(directive), conditionalLine().MatchString(directive):
	default:
		return sc.refuse("a preprocessor directive other than #include <header.h>, #define NAME value and #if/#ifdef/#else/#endif")
	}
	sc.i += end
	return nil
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentPart(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }
