package patch

import "fmt"

// Op is what a diff line does.
type Op byte

// The operations of a diff line.
const (
	Context Op = ' '
	Delete  Op = '-'
	Add     Op = '+'
)

// DiffLine is one line of a hunk.
type DiffLine struct {
	Op Op
	Line
}

// Hunk is one hunk of a unified diff: where its header says it starts, and
// its lines in order.
type Hunk struct {
	OldStart int // as in the header: 1-based; for an empty pre-image, the line after which it goes
	Lines    []DiffLine
}

// image is the hunk's lines except those of op skip: the pre-image without
// added lines, the post-image without deleted ones.
func (h Hunk) image(skip Op) []Line {
	var out []Line
	for _, l := range h.Lines {
		if l.Op != skip {
			out = append(out, l.Line)
		}
	}
	return out
}

// context counts the context lines that lead and trail the hunk, which
// fuzz may ignore.
func (h Hunk) context() (before, after int) {
	for before < len(h.Lines) && h.Lines[before].Op == Context {
		before++
	}
	for after < len(h.Lines)-before && h.Lines[len(h.Lines)-1-after].Op == Context {
		after++
	}
	return before, after
}

// Placement is where a hunk went.
type Placement struct {
	Hunk       int  `json:"hunk" jsonschema:"1-based, in the file's order"`
	Line       int  `json:"line" jsonschema:"1-based line of the original file where the hunk's pre-image starts"`
	Offset     int  `json:"offset" jsonschema:"lines away from where its header said"`
	Fuzz       int  `json:"fuzz" jsonschema:"context lines ignored at each end to place it, 0 to 2"`
	Whitespace bool `json:"whitespace_insensitive,omitempty" jsonschema:"placed only by ignoring differences in white space"`
}

// Rejection is a hunk that could not be placed, and why.
type Rejection struct {
	Hunk   int    `json:"hunk"`
	Reason string `json:"reason"`
}

// maxFuzz is how many context lines at each end may be ignored, as GNU
// patch's default.
const maxFuzz = 2

// Apply places every hunk, in order and without overlap, on lines (the
// original), and returns the patched lines. Any rejection means nothing is
// to be written: the caller gets every rejection, not only the first.
func Apply(lines []Line, hunks []Hunk) ([]Line, []Placement, []Rejection) {
	eol := DominantEOL(lines)
	var places []Placement
	var rejects []Rejection
	var out []Line
	from, offset := 0, 0 // the first line a hunk may start at; the last hunk's offset
	for i, h := range hunks {
		stated := h.OldStart - 1
		if len(h.image(Add)) == 0 {
			stated = h.OldStart
		}
		p, ok, reason := locate(lines, h, from, stated+offset)
		if !ok {
			rejects = append(rejects, Rejection{Hunk: i + 1, Reason: reason})
			continue
		}
		p.Hunk, p.Offset = i+1, p.Line-stated
		offset = p.Offset
		t := trimFuzz(h, p.Fuzz)
		before, _ := h.context()
		start := p.Line + min(p.Fuzz, before)
		n := len(t.image(Add))
		out = append(out, lines[from:start]...)
		out = append(out, postImage(lines[start:start+n], t, eol, start+n == len(lines))...)
		from = start + n
		p.Line++
		places = append(places, p)
	}
	if len(rejects) > 0 {
		return nil, places, rejects
	}
	out = append(out, lines[from:]...)
	return out, places, nil
}

// trimFuzz drops up to fuzz leading and trailing context lines.
func trimFuzz(h Hunk, fuzz int) Hunk {
	b, a := h.context()
	b, a = min(fuzz, b), min(fuzz, a)
	return Hunk{OldStart: h.OldStart + b, Lines: h.Lines[b : len(h.Lines)-a]}
}

// postImage is what replaces matched (the file's lines under the hunk's
// pre-image): context lines stay the file's own (they matched, perhaps only
// up to white space), added lines take the file's terminator, and a last
// line the diff marks "\ No newline at end of file" gets none.
func postImage(matched []Line, h Hunk, eol string, atEOF bool) []Line {
	var out []Line
	k := 0 // index in matched
	for i, l := range h.Lines {
		switch l.Op {
		case Context:
			out = append(out, matched[k])
			k++
		case Delete:
			k++
		case Add:
			nl := Line{Text: l.Text, EOL: eol}
			if l.EOL == "" && atEOF && i == len(h.Lines)-1 {
				nl.EOL = ""
			}
			out = append(out, nl)
		}
	}
	// A last context line that had no terminator gets one when lines now follow it.
	for i := 0; i < len(out)-1; i++ {
		if out[i].EOL == "" {
			out[i].EOL = eol
		}
	}
	return out
}

// locate finds where h's pre-image matches, at or after from: at want, else
// the nearest exact match, then with fuzz 1 and 2, then ignoring white
// space. Two matches equally near are ambiguous.
func locate(lines []Line, h Hunk, from, want int) (Placement, bool, string) {
	pre := h.image(Add)
	if len(pre) == 0 {
		return Placement{Line: min(max(want, from), len(lines))}, true, ""
	}
	before, after := h.context()
	for fuzz := 0; fuzz <= maxFuzz; fuzz++ {
		if fuzz > 0 && fuzz > before && fuzz > after {
			break
		}
		old := trimFuzz(h, fuzz).image(Add)
		if len(old) == 0 {
			break
		}
		b := min(fuzz, before)
		pos, n := nearest(lines, old, from, want+b, exactEq)
		if n > 1 {
			return Placement{}, false, fmt.Sprintf("ambiguous: its lines match equally well at lines %d and %d; add context lines to tell them apart", pos+1, mirror(pos, want+b)+1)
		}
		if n == 1 {
			return Placement{Line: pos - b, Fuzz: fuzz}, true, ""
		}
	}
	pos, n := nearest(lines, pre, from, want, wsEq)
	if n > 1 {
		return Placement{}, false, fmt.Sprintf("ambiguous: ignoring white space its lines match at lines %d and %d", pos+1, mirror(pos, want)+1)
	}
	if n == 1 {
		return Placement{Line: pos, Whitespace: true}, true, ""
	}
	return Placement{}, false, fmt.Sprintf("its %d context and removed lines were not found at or after line %d (expected near line %d)", len(pre), from+1, want+1)
}

func mirror(pos, want int) int { return 2*want - pos }

func exactEq(a, b Line) bool { return a.Text == b.Text }
func wsEq(a, b Line) bool    { return normalizeWS(a.Text) == normalizeWS(b.Text) }

// nearest finds the match of pat in lines[from:] closest to want, and how
// many matches share that distance (0, 1, or 2 when ambiguous).
func nearest(lines, pat []Line, from, want int, eq func(a, b Line) bool) (int, int) {
	last := len(lines) - len(pat)
	if last < from {
		return 0, 0
	}
	want = min(max(want, from), last)
	matches := func(pos int) bool {
		for i := range pat {
			if !eq(lines[pos+i], pat[i]) {
				return false
			}
		}
		return true
	}
	for d := 0; want-d >= from || want+d <= last; d++ {
		up, down := want+d, want-d
		hitUp := up <= last && matches(up)
		hitDown := d > 0 && down >= from && matches(down)
		switch {
		case hitUp && hitDown:
			return up, 2
		case hitUp:
			return up, 1
		case hitDown:
			return down, 1
		}
	}
	return 0, 0
}
