package tool

import (
	"bytes"
	"encoding/json"
)

// A preview is the result itself, cut down to fit the output cap: the same
// shape as data, with each array cut to its first items (then, if that is
// not enough, long strings to their first bytes, then objects to their
// first members), and a count of what each cut left in the handle. An agent
// reads it with the code it would use for data, and knows what it missed.

// PreviewCount is one part of data that data_preview shortened: all the
// values at one path, summed.
type PreviewCount struct {
	Path       string `json:"path" jsonschema:"where in data, as a JSONPath: $.hits, $.procs[*].threads"`
	Unit       string `json:"unit" jsonschema:"items (of arrays), members (of objects) or bytes (of strings)"`
	Kept       int    `json:"kept" jsonschema:"how many are in data_preview"`
	Total      int    `json:"total" jsonschema:"how many the handle holds"`
	HandleLine int    `json:"handle_line" jsonschema:"the line of the handle (handle_read offset, unit lines) where the first value cut at this path continues"`
}

// maxPreviewCounts bounds preview_counts; further paths are cut but not
// counted (in document order, the first ones are kept).
const maxPreviewCounts = 16

// unlimited is a cut that keeps everything.
const unlimited = int(^uint(0) >> 1)

// cut is one way to shorten a tree: at most items per array, members per
// object, and bytes per string (encoded, quotes included).
type cut struct{ items, members, str int }

// previewer writes the cut trees of one result.
type previewer struct {
	t   *jtree
	buf bytes.Buffer // reused by every render
}

// render writes the tree cut by c as compact JSON, and counts what it cut.
// It gives up (ok false) once the JSON passes limit bytes. The JSON is
// valid until the next render.
func (pv *previewer) render(c cut, limit int) (js []byte, counts []PreviewCount, ok bool) {
	pv.buf.Reset()
	r := &renderer{t: pv.t, buf: &pv.buf, cut: c, limit: limit, index: map[string]int{}}
	r.value(&pv.t.root, "$")
	if r.over() {
		return nil, nil, false
	}
	return r.buf.Bytes(), r.counts, true
}

type renderer struct {
	t      *jtree
	buf    *bytes.Buffer
	cut    cut
	limit  int
	counts []PreviewCount
	index  map[string]int // path -> position in counts
}

func (r *renderer) over() bool { return r.buf.Len() > r.limit }

// count adds one shortened value to the count of its path.
func (r *renderer) count(path, unit string, kept, total, line int) {
	i, ok := r.index[path]
	if !ok {
		if len(r.counts) == maxPreviewCounts {
			return
		}
		i = len(r.counts)
		r.index[path] = i
		r.counts = append(r.counts, PreviewCount{Path: path, Unit: unit, HandleLine: line})
	}
	r.counts[i].Kept += kept
	r.counts[i].Total += total
}

func (r *renderer) value(n *jnode, path string) {
	if r.over() {
		return
	}
	switch n.kind {
	case '"':
		r.str(n, path)
	case '[':
		keep := min(len(n.kids), r.cut.items)
		if keep < len(n.kids) {
			r.count(path, "items", keep, len(n.kids), int(n.kids[keep].line))
		}
		r.buf.WriteByte('[')
		items := path + "[*]"
		for i := range n.kids[:keep] {
			if i > 0 {
				r.buf.WriteByte(',')
			}
			r.value(&n.kids[i], items)
		}
		r.buf.WriteByte(']')
	case '{':
		keep := min(len(n.kids), r.cut.members)
		if keep < len(n.kids) {
			r.count(path, "members", keep, len(n.kids), int(n.kids[keep].line))
		}
		r.buf.WriteByte('{')
		for i := range n.kids[:keep] {
			if i > 0 {
				r.buf.WriteByte(',')
			}
			name := r.t.name(&n.kids[i])
			r.buf.Write(name)
			r.buf.WriteByte(':')
			r.value(&n.kids[i], memberPath(path, name))
		}
		r.buf.WriteByte('}')
	default:
		r.buf.Write(r.t.raw(n))
	}
}

// str writes a string, cut to the cut's bytes at a character boundary.
func (r *renderer) str(n *jnode, path string) {
	raw := r.t.raw(n)
	if len(raw) <= r.cut.str {
		r.buf.Write(raw)
		return
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil { // the encoder wrote it: unreachable
		r.buf.WriteString(`""`)
		return
	}
	kept := s[:FitJSONString(s, r.cut.str, false)]
	js, _ := MarshalJSON(kept) // a string always encodes
	r.buf.Write(js)
	r.count(path, "bytes", len(kept), len(s), int(n.line))
}

// memberPath names a member in JSONPath: $.name, or $["odd name"].
func memberPath(path string, key []byte) string {
	if name := key[1 : len(key)-1]; isIdentifier(name) {
		return path + "." + string(name)
	}
	return path + "[" + string(key) + "]"
}

// isIdentifier reports whether name is [A-Za-z_][A-Za-z0-9_]*.
func isIdentifier(name []byte) bool {
	for i, c := range name {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return len(name) > 0
}

// fit finds the least cut whose preview passes fits: arrays first, from
// their whole length down to one item; then, with one item each, strings
// down to empty; then, with empty arrays and strings of at most 64 bytes,
// objects down to no members. It reports false when nothing fits.
func (pv *previewer) fit(fits func(js []byte, counts []PreviewCount) bool, limit int) ([]byte, []PreviewCount, bool) {
	try := func(c cut) ([]byte, []PreviewCount, bool) {
		js, counts, ok := pv.render(c, limit)
		return js, counts, ok && fits(js, counts)
	}
	steps := []struct {
		at  func(x int) cut
		max int
	}{
		{func(x int) cut { return cut{items: x, members: unlimited, str: unlimited} }, pv.t.stats.items},
		{func(x int) cut { return cut{items: 1, members: unlimited, str: x} }, pv.t.stats.str},
		{func(x int) cut { return cut{items: 0, members: x, str: 64} }, pv.t.stats.members},
	}
	for i, s := range steps {
		lo := 1
		if i > 0 {
			lo = 0
		}
		if s.max < lo {
			continue
		}
		if _, _, ok := try(s.at(lo)); !ok {
			continue
		}
		// The largest x in [lo, max] that fits, as the preview grows with x.
		hi := s.max
		for lo < hi {
			mid := lo + (hi-lo+1)/2
			if _, _, ok := try(s.at(mid)); ok {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		js, counts, ok := try(s.at(lo))
		return bytes.Clone(js), counts, ok
	}
	return nil, nil, false
}
