package search

import "bytes"

// rgPathMax is the longest path rg can report a match in: PATH_MAX, the
// kernel's bound on a path it is given (rg opens "./dir/name" whole). A
// longer head is never grown: its record is dropped.
const rgPathMax = 4096

// rgRecords rebuilds search_content's records from rg's stdout lines.
//
// With --null --line-number --no-heading --max-columns=1, rg prints a
// record "./path\x00N:...\n" per candidate line: exactly one NUL, right
// after the path (a path holds no NUL), and after it the line number and
// "[Omitted long matching line]" in place of the line's bytes, which are
// never printed (an empty line prints nothing there): no NUL, no newline.
// The newline that ends the record is its only one outside the path. So a line without a NUL is never a record: it is the head of the
// next record's path, cut where the name holds a newline, and is joined to
// the lines after it, that newline restored, up to the one with the NUL.
// A line with a NUL is a whole record when nothing pends, as for every
// name without a newline: that case costs one test.
type rgRecords struct {
	head    []byte // the pending head of a path, its newlines restored
	over    bool   // the pending head passed rgPathMax and was let go
	dropped int    // records dropped for a path longer than rgPathMax
}

// join returns the record that line ends, valid until the next call, or
// false while line is only the head of one (or ends one that was dropped).
func (r *rgRecords) join(line []byte) ([]byte, bool) {
	nul := bytes.IndexByte(line, 0)
	if nul < 0 {
		if r.over || len(r.head)+len(line)+1 > rgPathMax {
			r.over, r.head = true, r.head[:0]
			return nil, false
		}
		r.head = append(append(r.head, line...), '\n')
		return nil, false
	}
	if len(r.head) == 0 && !r.over {
		return line, true
	}
	if r.over || len(r.head)+nul > rgPathMax {
		r.over, r.head = false, r.head[:0]
		r.dropped++
		return nil, false
	}
	rec := append(r.head, line...)
	r.head = rec[:0]
	return rec, true
}
