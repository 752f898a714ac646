package search

import (
	"bytes"
	"regexp"
	"sync"
)

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
// The newline that ends the record is its only one outside the path. So a
// line without a NUL is never a record: it is the head of the next
// record's path, cut where the name holds a newline, and is joined to the
// lines after it, that newline restored, up to the one with the NUL. A
// line with a NUL is a whole record when nothing pends, as for every name
// without a newline: that case costs one test.
//
// The one other line rg prints there, --no-messages or not, is its note on
// a binary file, right after that file's records (see rgBinaryNote): it is
// let go, not taken for a head.
type rgRecords struct {
	head    []byte // the pending head of a path, its newlines restored
	over    bool   // the pending head passed rgPathMax and was let go
	dropped int    // records dropped for a path longer than rgPathMax
	last    []byte // the path of the last record, as rg printed it
}

// rgBinaryNote is the note rg prints on stdout after the records of a file
// in which it found a NUL ("./a.log: WARNING: stopped searching binary file
// after match (found "\0" byte around offset 200014)"; "binary file
// matches" for a file it was named), the path as in the records before it.
var rgBinaryNote = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^: (?:WARNING: stopped searching binary file after match|binary file matches) \(found ".*" byte around offset [0-9]+\)$`)
})

// isBinaryNote tells whether line, which holds no NUL, is rg's note on the
// file of the last record. A head that looks like one would also have to
// follow that file's records to be let go, and even then only misdirects
// one candidate, which is read again through the root.
func (r *rgRecords) isBinaryNote(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, r.last)
	return ok && len(r.last) > 0 && bytes.HasPrefix(rest, []byte(": ")) && rgBinaryNote().Match(rest)
}

// join returns the record that line ends, valid until the next call, or
// false while line is only the head of one (or ends one that was dropped).
func (r *rgRecords) join(line []byte) ([]byte, bool) {
	nul := bytes.IndexByte(line, 0)
	if nul < 0 {
		if len(r.head) == 0 && !r.over && r.isBinaryNote(line) {
			return nil, false
		}
		if r.over || len(r.head)+len(line)+1 > rgPathMax {
			r.over, r.head = true, r.head[:0]
			return nil, false
		}
		r.head = append(append(r.head, line...), '\n')
		return nil, false
	}
	if len(r.head) == 0 && !r.over {
		r.last = append(r.last[:0], line[:nul]...)
		return line, true
	}
	if r.over || len(r.head)+nul > rgPathMax {
		r.over, r.head = false, r.head[:0]
		r.dropped++
		return nil, false
	}
	rec := append(r.head, line...)
	r.head = rec[:0]
	r.last = append(r.last[:0], rec[:len(rec)-len(line)+nul]...)
	return rec, true
}
