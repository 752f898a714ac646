package tool

import (
	"bytes"
	"fmt"
)

// jnode is one value of a result's JSON, parsed just enough to cut it into
// a preview and to lay it out as the handle's indented text: scalars and
// member names stay as the encoder wrote them, so nothing is re-encoded and
// object members keep their order (a map would sort them).
type jnode struct {
	kind byte     // '{', '[', '"', or 0 for a number, true, false or null
	raw  []byte   // a scalar's encoding; a string's includes its quotes
	keys [][]byte // an object's member names, encoded
	kids []*jnode // an object's member values, an array's items
	line int      // the line of the indented text where the value starts
}

// jstats are the largest parts of a tree: how far a preview may need to
// cut each kind.
type jstats struct {
	items, members, str int
}

// parseJSON parses JSON that encoding/json wrote (valid; whitespace, which
// it never writes inside a value, is skipped all the same).
func parseJSON(b []byte) (*jnode, jstats, error) {
	p := &jparser{b: b}
	n, err := p.value(0)
	if err != nil {
		return nil, jstats{}, err
	}
	if p.skip(); p.i != len(b) {
		return nil, jstats{}, fmt.Errorf("parsing JSON: trailing data at byte %d", p.i)
	}
	return n, p.stats, nil
}

// maxJSONDepth bounds recursion; encoding/json refuses deeper values too.
const maxJSONDepth = 10000

type jparser struct {
	b     []byte
	i     int
	stats jstats
}

func (p *jparser) skip() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\n' || p.b[p.i] == '\r' || p.b[p.i] == '\t') {
		p.i++
	}
}

func (p *jparser) value(depth int) (*jnode, error) {
	if depth > maxJSONDepth {
		return nil, fmt.Errorf("parsing JSON: nested deeper than %d", maxJSONDepth)
	}
	p.skip()
	if p.i >= len(p.b) {
		return nil, fmt.Errorf("parsing JSON: unexpected end")
	}
	switch c := p.b[p.i]; c {
	case '{', '[':
		return p.container(c, depth)
	case '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		p.stats.str = max(p.stats.str, len(s))
		return &jnode{kind: '"', raw: s}, nil
	default:
		start := p.i
		for p.i < len(p.b) && !bytes.ContainsRune([]byte(",]} \n\r\t"), rune(p.b[p.i])) {
			p.i++
		}
		if p.i == start {
			return nil, fmt.Errorf("parsing JSON: unexpected %q at byte %d", c, start)
		}
		return &jnode{raw: p.b[start:p.i]}, nil
	}
}

func (p *jparser) container(open byte, depth int) (*jnode, error) {
	n := &jnode{kind: open}
	closing := byte('}')
	if open == '[' {
		closing = ']'
	}
	p.i++
	for first := true; ; first = false {
		p.skip()
		if p.i < len(p.b) && p.b[p.i] == closing {
			p.i++
			break
		}
		if !first {
			if p.i >= len(p.b) || p.b[p.i] != ',' {
				return nil, fmt.Errorf("parsing JSON: expected ',' at byte %d", p.i)
			}
			p.i++
			p.skip()
		}
		if open == '{' {
			k, err := p.str()
			if err != nil {
				return nil, err
			}
			if p.skip(); p.i >= len(p.b) || p.b[p.i] != ':' {
				return nil, fmt.Errorf("parsing JSON: expected ':' at byte %d", p.i)
			}
			p.i++
			n.keys = append(n.keys, k)
		}
		kid, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.kids = append(n.kids, kid)
	}
	if open == '{' {
		p.stats.members = max(p.stats.members, len(n.kids))
	} else {
		p.stats.items = max(p.stats.items, len(n.kids))
	}
	return n, nil
}

// str returns the encoded string at p.i, quotes included.
func (p *jparser) str() ([]byte, error) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return nil, fmt.Errorf("parsing JSON: expected a string at byte %d", p.i)
	}
	start := p.i
	for p.i++; p.i < len(p.b); p.i++ {
		switch p.b[p.i] {
		case '\\':
			p.i++
		case '"':
			p.i++
			return p.b[start:p.i], nil
		}
	}
	return nil, fmt.Errorf("parsing JSON: unterminated string at byte %d", start)
}

// indentJSON lays the tree out as json.Indent(dst, src, "", " ") does, the
// form handle_read pages by line, and records in each node the line where
// it starts. It returns the text and its number of lines.
func indentJSON(n *jnode) ([]byte, int) {
	w := &indenter{}
	w.value(n, 0)
	return w.buf.Bytes(), w.line + 1
}

type indenter struct {
	buf  bytes.Buffer
	line int
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
		w.buf.Write(n.raw)
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
	for i, kid := range n.kids {
		if i > 0 {
			w.buf.WriteByte(',')
		}
		w.newline(depth + 1)
		if n.kind == '{' {
			w.buf.Write(n.keys[i])
			w.buf.WriteString(": ")
		}
		w.value(kid, depth+1)
	}
	w.newline(depth)
	w.buf.WriteByte(closing)
}
