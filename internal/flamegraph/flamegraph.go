// Package flamegraph draws a flame graph SVG from collapsed stacks
// ("root;child;leaf count" lines), deterministically: the same stacks give
// the same bytes, so artifacts can be compared and tested.
package flamegraph

import (
	"bufio"
	"bytes"
	"fmt"
	"hash/fnv"
	"html"
	"slices"
	"strconv"
	"strings"
)

// Layout of the drawing, in pixels.
const (
	width     = 1200
	rowHeight = 16
	margin    = 10
	titleRoom = 30
	minWidth  = 0.3 // narrower frames are not drawn
	charWidth = 7.0 // of the 12 px monospace font, to fit labels
)

// node is one frame in the merged tree of stacks.
type node struct {
	name     string
	total    int64
	children map[string]*node
}

func (n *node) child(name string) *node {
	if n.children == nil {
		n.children = map[string]*node{}
	}
	c := n.children[name]
	if c == nil {
		c = &node{name: name}
		n.children[name] = c
	}
	return c
}

// Render draws collapsed stacks with title on top. Frames are ordered by
// name at each level, as flamegraph.pl does, so the drawing is stable.
func Render(collapsed []byte, title string) ([]byte, error) {
	root := &node{name: "all"}
	depth := 0
	sc := bufio.NewScanner(bytes.NewReader(collapsed))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		sp := strings.LastIndexByte(line, ' ')
		if sp < 0 {
			return nil, fmt.Errorf("collapsed line %q has no count", line)
		}
		n, err := strconv.ParseInt(line[sp+1:], 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("collapsed line %q: bad count", line)
		}
		frames := strings.Split(line[:sp], ";")
		depth = max(depth, len(frames))
		cur := root
		cur.total += n
		for _, f := range frames {
			cur = cur.child(f)
			cur.total += n
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	height := titleRoom + (depth+1)*rowHeight + 2*margin
	var b bytes.Buffer
	fmt.Fprintf(&b, `<?xml version="1.0" standalone="no"?>
<svg version="1.1" width="%d" height="%d" viewBox="0 0 %d %d" xmlns="http://www.w3.org/2000/svg" font-family="monospace" font-size="12">
<rect x="0" y="0" width="%d" height="%d" fill="#f8f8f8"/>
<text x="%d" y="20" font-size="16" text-anchor="middle">%s</text>
`, width, height, width, height, width, height, width/2, html.EscapeString(title))
	if root.total > 0 {
		scale := float64(width-2*margin) / float64(root.total)
		draw(&b, root, margin, 0, scale, root.total, height)
	}
	b.WriteString("</svg>\n")
	return b.Bytes(), nil
}

// draw writes n at x and depth d (0 at the bottom), then its children left
// to right in name order.
func draw(b *bytes.Buffer, n *node, x float64, d int, scale float64, all int64, height int) {
	w := float64(n.total) * scale
	if w < minWidth {
		return
	}
	y := height - margin - (d+1)*rowHeight
	pct := 100 * float64(n.total) / float64(all)
	label := html.EscapeString(n.name)
	fmt.Fprintf(b, `<g><title>%s (%d samples, %.2f%%)</title><rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s" rx="2"/>`,
		label, n.total, pct, x, y, w, rowHeight-1, color(n.name))
	if fit := int((w - 4) / charWidth); fit >= 3 {
		text := n.name
		if len(text) > fit {
			text = text[:fit-2] + ".."
		}
		fmt.Fprintf(b, `<text x="%.1f" y="%d">%s</text>`, x+3, y+rowHeight-4, html.EscapeString(text))
	}
	b.WriteString("</g>\n")
	names := make([]string, 0, len(n.children))
	for k := range n.children {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		c := n.children[k]
		draw(b, c, x, d+1, scale, all, height)
		x += float64(c.total) * scale
	}
}

// color is a warm colour derived from the name, the same on every run.
func color(name string) string {
	h := fnv.New32a()
	h.Write([]byte(name))
	v := h.Sum32()
	return fmt.Sprintf("rgb(%d,%d,%d)", 205+v%50, 80+(v>>8)%130, 40+(v>>16)%50)
}
