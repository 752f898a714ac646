package tool

import (
	"bytes"
	"fmt"
	"math"
	"slices"
)

// jtree is a result's JSON parsed just enough to cut it into a preview and
// to lay it out as the handle's indented text: scalars and member names
// stay as the encoder wrote them (spans of src), so nothing is re-encoded
// and object members keep their order (a map would sort them). Nodes are
// small values, not pointers: a 1 MB result has some 10^5 of them.
type jtree struct {
	src   []byte
	root  jnode
	stats jstats
}

// jnode is one value.
type jnode struct {
	kids        []jnode // an object's member values, an array's items
	start, end  int32   // a scalar's encoding in src; a string's includes its quotes
	key, keyEnd int32   // when the parent is an object: this member's encoded name
	line        int32   // the line of the indented text where the value starts
	kind        byte    // '{', '[', '"', or 0 for a number, true, false or null
}

func (t *jtree) raw(n *jnode) []byte  { return t.src[n.start:n.end] }
func (t *jtree) name(n *jnode) []byte { return t.src[n.key:n.keyEnd] }

// jstats are the largest parts of a tree: how far a preview may need to
// cut each kind.
type jstats struct {
	items, members, str int
}

// parseJSON parses JSON that encoding/json wrote (valid; whitespace, which
// it never writes inside a value, is skipped all the same).
func parseJSON(b []byte) (*jtree, error) {
	if len(b) > math.MaxInt32 {
		return nil, fmt.Errorf("parsing JSON: %d bytes is too large to preview", len(b))
	}
	p := &jparser{b: b}
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if p.skip(); p.i != len(b) {
		return nil, fmt.Errorf("parsing JSON: trailing data at byte %d", p.i)
	}
	return &jtree{src: b, root: n, stats: p.stats}, nil
}

// maxJSONDepth bounds recursion; encoding/json refuses deeper values too.
const maxJSONDepth = 10000

type jparser struct {
	b     []byte
	i     int
	stats jstats
	// stack holds the members or items of the containers being parsed, so
	// that each container's are allocated once, at their final count.
	stack []jnode
}

func (p *jparser) skip() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\n' || p.b[p.i] == '\r' || p.b[p.i] == '\t') {
		p.i++
	}
}

func (p *jparser) value(depth int) (jnode, error) {
	if depth > maxJSONDepth {
		return jnode{}, fmt.Errorf("parsing JSON: nested deeper than %d", maxJSONDepth)
	}
	p.skip()
	if p.i >= len(p.b) {
		return jnode{}, fmt.Errorf("parsing JSON: unexpected end")
	}
	switch c := p.b[p.i]; c {
	case '{', '[':
		return p.container(c, depth)
	case '"':
		start, err := p.str()
		if err != nil {
			return jnode{}, err
		}
		p.stats.str = max(p.stats.str, p.i-start)
		return jnode{kind: '"', start: int32(start), end: int32(p.i)}, nil
	default:
		start := p.i
		for p.i < len(p.b) && !endsLiteral(p.b[p.i]) {
			p.i++
		}
		if p.i == start {
			return jnode{}, fmt.Errorf("parsing JSON: unexpected %q at byte %d", c, start)
		}
		return jnode{start: int32(start), end: int32(p.i)}, nil
	}
}

// endsLiteral reports whether c ends a number, true, false or null.
func endsLiteral(c byte) bool {
	switch c {
	case ',', ']', '}', ' ', '\n', '\r', '\t':
		return true
	}
	return false
}

func (p *jparser) container(open byte, depth int) (jnode, error) {
	n := jnode{kind: open}
	closing := byte('}')
	if open == '[' {
		closing = ']'
	}
	p.i++
	base := len(p.stack)
	for first := true; ; first = false {
		p.skip()
		if p.i < len(p.b) && p.b[p.i] == closing {
			p.i++
			break
		}
		if !first {
			if p.i >= len(p.b) || p.b[p.i] != ',' {
				return jnode{}, fmt.Errorf("parsing JSON: expected ',' at byte %d", p.i)
			}
			p.i++
			p.skip()
		}
		key, keyEnd := 0, 0
		if open == '{' {
			var err error
			if key, err = p.str(); err != nil {
				return jnode{}, err
			}
			keyEnd = p.i
			if p.skip(); p.i >= len(p.b) || p.b[p.i] != ':' {
				return jnode{}, fmt.Errorf("parsing JSON: expected ':' at byte %d", p.i)
			}
			p.i++
		}
		kid, err := p.value(depth + 1)
		if err != nil {
			return jnode{}, err
		}
		kid.key, kid.keyEnd = int32(key), int32(keyEnd)
		p.stack = append(p.stack, kid)
	}
	if len(p.stack) > base {
		n.kids = slices.Clone(p.stack[base:])
		clear(p.stack[base:]) // drop the references the clones now hold
		p.stack = p.stack[:base]
	}
	if open == '{' {
		p.stats.members = max(p.stats.members, len(n.kids))
	} else {
		p.stats.items = max(p.stats.items, len(n.kids))
	}
	return n, nil
}

// str moves past the encoded string at p.i and returns where it started.
func (p *jparser) str() (int, error) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return 0, fmt.Errorf("parsing JSON: expected a string at byte %d", p.i)
	}
	start := p.i
	for p.i++; p.i < len(p.b); p.i++ {
		switch p.b[p.i] {
		case '\\':
			p.i++
		case '"':
			p.i++
			return start, nil
		}
	}
	return 0, fmt.Errorf("parsing JSON: unterminated string at byte %d", start)
}

// indent lays the tree out as json.Indent(dst, src, "", " ") does, the
// form handle_read pages by line, and records in each node the line where
// it starts. It returns the text and its number of lines.
func (t *jtree) indent() ([]byte, int) {
	w := &indenter{t: t}
	w.buf.Grow(len(t.src) * 2) // one space per level and a newline per value: about twice compact JSON
	w.value(&t.root, 0)
	return w.buf.Bytes(), int(w.line) + 1
}

type indenter struct {
	t    *jtree
	buf  bytes.Buffer
	line int32
}

func (w *indenter) newline(depth int) {
	w.buf.WriteByte('\n')
	w.line++
	for range depth {
		w.buf.WriteByte(' ')
	}
}

func (w *indenter) value(n *jnode, depth int) {
	n.line = w.line
	if n.kind != '{' && n.kind != '[' {
		w.buf.Write(w.t.raw(n))
		return
	}
	closing := byte('}')
	if n.kind == '[' {
		closing = ']'
	}
	w.buf.WriteByte(n.kind)
	if len(n.kids) == 0 {
		w.buf.WriteByte(closing)
		return
	}
	for i := range n.kids {
		if i > 0 {
			w.buf.WriteByte(',')
		}
		w.newline(depth + 1)
		if n.kind == '{' {
			w.buf.Write(w.t.name(&n.kids[i]))
			w.buf.WriteString(": ")
		}
		w.value(&n.kids[i], depth+1)
	}
	w.newline(depth)
	w.buf.WriteByte(closing)
}
