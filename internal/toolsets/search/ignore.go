package search

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
)

// A glob in gitignore syntax (gitignore(5)), compiled to a regexp over
// slash-separated paths relative to the directory it applies to. The same
// syntax serves .gitignore files and file_glob, as ripgrep's --glob does.
type glob struct {
	re      *regexp.Regexp
	negate  bool // "!pattern": re-include
	dirOnly bool // "pattern/": directories only
}

// parseGlob parses one gitignore line; ok is false for blanks and comments.
func parseGlob(line string) (glob, bool, error) {
	line = strings.TrimSuffix(line, "\r")
	line = trimTrailingSpaces(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return glob{}, false, nil
	}
	var g glob
	switch {
	case strings.HasPrefix(line, "!"):
		g.negate, line = true, line[1:]
	case strings.HasPrefix(line, `\!`), strings.HasPrefix(line, `\#`):
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") && !strings.HasSuffix(line, `\/`) {
		g.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	if line == "" {
		return glob{}, false, nil
	}
	anchored := strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	expr := "^"
	if !anchored {
		expr += "(?:.*/)?"
	}
	expr += globExpr(line) + "$"
	re, err := regexp.Compile(expr) // bounded by the glob's length: a few instructions per character
	if err != nil {
		return glob{}, false, err
	}
	g.re = re
	return g, true, nil
}

// trimTrailingSpaces drops trailing spaces unless escaped with a backslash.
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-1]
	}
	return s
}

// globExpr translates glob syntax: "*" and "?" never match "/", "**/" and
// "/**/" match any number of directories, a trailing "/**" everything
// inside, "[...]" a class ("[!...]" negated), "\x" the character x.
func globExpr(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); {
		atSep := i == 0 || g[i-1] == '/'
		switch {
		case atSep && strings.HasPrefix(g[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 3
		case atSep && g[i:] == "**":
			b.WriteString(".*")
			i += 2
		case g[i] == '*':
			b.WriteString("[^/]*")
			i++
		case g[i] == '?':
			b.WriteString("[^/]")
			i++
		case g[i] == '[':
			if cls, n := globClass(g[i:]); n > 0 {
				b.WriteString(cls)
				i += n
				continue
			}
			b.WriteString(`\[`)
			i++
		case g[i] == '\\' && i+1 < len(g):
			b.WriteString(regexp.QuoteMeta(g[i+1 : i+2]))
			i += 2
		default:
			b.WriteString(regexp.QuoteMeta(g[i : i+1]))
			i++
		}
	}
	return b.String()
}

// globClass translates a bracket expression at the start of g and returns
// its length, or 0 when it is not closed (then "[" is literal).
func globClass(g string) (string, int) {
	var b strings.Builder
	b.WriteByte('[')
	i := 1
	if i < len(g) && (g[i] == '!' || g[i] == '^') {
		b.WriteByte('^')
		i++
	}
	first := true
	for ; i < len(g); i++ {
		c := g[i]
		if c == ']' && !first {
			b.WriteString("]")
			return b.String(), i + 1
		}
		first = false
		switch {
		case c == '\\' && i+1 < len(g):
			i++
			b.WriteString(regexp.QuoteMeta(g[i : i+1]))
		case c == '/':
			return "", 0
		case c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
			b.WriteByte(c)
		default:
			b.WriteString(`\` + string(c))
		}
	}
	return "", 0
}

// ignoreFile is one .gitignore: its patterns apply to paths below dir
// (relative to the search root, "" for the root itself).
type ignoreFile struct {
	dir  string
	pats []glob
}

// maxIgnorePatterns bounds the .gitignore patterns one native walk
// compiles, about 1 KiB each once compiled: a tree whose .gitignore files
// hold a million one-character lines must not cost a gigabyte. The largest
// real trees hold a few thousand.
const maxIgnorePatterns = 20_000

// parseIgnore compiles the patterns of one .gitignore, at most *budget of
// them (which it decreases), and returns how many it left out. A line
// longer than maxPattern is left out too: no path is that long.
func parseIgnore(dir string, data []byte, budget *int) (*ignoreFile, int) {
	f := &ignoreFile{dir: dir}
	dropped := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) > maxPattern || *budget == 0 {
			dropped++
			continue
		}
		if g, ok, err := parseGlob(string(line)); ok && err == nil {
			f.pats = append(f.pats, g)
			*budget--
		}
	}
	return f, dropped
}

// match reports whether a pattern matches rel (relative to the search
// root) and, if so, whether it ignores (true) or re-includes it. The last
// matching pattern wins, as in git.
func (f *ignoreFile) match(rel string, isDir bool) (matched, ignore bool) {
	sub := rel
	if f.dir != "" {
		sub = strings.TrimPrefix(rel, f.dir+"/")
	}
	for i := len(f.pats) - 1; i >= 0; i-- {
		p := f.pats[i]
		if p.dirOnly && !isDir {
			continue
		}
		if p.re.MatchString(sub) {
			return true, !p.negate
		}
	}
	return false, false
}

// filter decides what a walk yields, in ripgrep's order of precedence
// (ignore crate, dir.rs: Ignore::matched): the file_glob override first (a
// match includes even hidden and ignored files; with a positive glob a file
// that does not match is left out), then .gitignore files from the deepest
// up, then hidden names.
type filter struct {
	override *glob
	hidden   bool // include hidden names
	noIgnore bool // do not read .gitignore files
}

// skip reports whether the entry rel (name is its base) is left out.
func (f *filter) skip(rel, name string, isDir bool, chain []*ignoreFile) bool {
	if o := f.override; o != nil {
		if o.re.MatchString(rel) && (!o.dirOnly || isDir) {
			return o.negate
		}
		if !o.negate && !isDir {
			return true
		}
	}
	whitelisted := false
	if !f.noIgnore {
		for i := len(chain) - 1; i >= 0; i-- {
			if m, ign := chain[i].match(rel, isDir); m {
				if ign {
					return true
				}
				whitelisted = true
				break
			}
		}
	}
	return !f.hidden && !whitelisted && strings.HasPrefix(name, ".")
}
