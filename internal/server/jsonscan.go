package server

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// maxNesting is the deepest a stdio message may nest objects and arrays,
// the top-level object being level 1. It is the go-sdk's own bound
// (internal/json's defaultMaxDepth, counted the same way): a deeper message
// fails the SDK's reader, which ends the session, so the guard refuses it.
const maxNesting = 1000

// maxIDBytes bounds the text of an "id" the scanner keeps, to answer a
// refused message under its id. Clients use counters and UUIDs; an id
// longer than this is answered under null.
const maxIDBytes = 1024

// maxKeyBytes bounds the text of a top-level key the scanner keeps: enough
// for any tracked name (seven characters at most) even with every
// character written as a \u escape.
const maxKeyBytes = 64

// member is what the scanner saw of one tracked member of the top-level
// object.
type member struct {
	count      int  // times the name appeared
	kind       byte // the value's first byte: '{', '[', '"', '-' or a digit, 't', 'f', 'n'
	start, end int  // the value's offsets in the line, end exclusive
}

// step is what the scanner expects next.
type step uint8

const (
	stepValue      step = iota // a value: at the start, after ':' or after ',' in an array
	stepValueOrEnd             // after '[': a value or ']'
	stepKeyOrEnd               // after '{': a key or '}'
	stepKey                    // after ',' in an object
	stepColon                  // after a key
	stepAfterValue             // ',' or the enclosing container's closer
	stepDone                   // after the top-level value: only whitespace
	stepString
	stepNumber
	stepLiteral
	stepSkim // inside containers nested beyond maxNesting
)

// capture says which text the scanner is keeping as it streams past.
type capture uint8

const (
	captureNone capture = iota
	captureKey          // a top-level key, without its quotes
	captureID           // the top-level "id" value
)

// jsonScanner checks that a line is one JSON value (RFC 8259, UTF-8), one
// byte at a time, so a line can be checked while it streams past without
// being held. Of a top-level object it notes where each tracked member's
// value lies and keeps the text of the id, so a message too large to hold
// can still be answered under its own id, whatever the order of its
// members and however many "id" keys its params hold. Its memory is fixed:
// a bit per level of nesting up to maxNesting (deeper levels are only
// counted) and the two bounded texts.
type jsonScanner struct {
	names   []string // the tracked member names; members is indexed alike
	idName  int      // index in names of the member whose text is kept, or -1
	members [8]member

	step    step
	depth   int
	objects [maxNesting/64 + 1]uint64 // bit level-1 is set when that level is an object
	off     int                       // offset in the line of the chunk being fed
	top     byte                      // first byte of the top-level value; 0 while none
	topAt   int                       // the top-level value's offsets, end exclusive
	topEnd  int
	tooDeep bool   // containers nested beyond maxNesting
	err     string // why the line is not JSON
	errAt   int

	inKey  bool    // the string being scanned is an object key
	esc    int8    // -1 after a backslash; 1 to 4: hex digits still due in \uXXXX
	due    int8    // UTF-8 continuation bytes still due, the next within lo..hi
	lo, hi byte    //
	num    numStep // where the number being scanned stands
	lit    string  // the literal being scanned, of which litN bytes are seen
	litN   int     //
	cur    int     // the tracked member whose value is being scanned at level 1, or -1

	capturing capture
	capFrom   int // offset in the line where the kept text resumes
	key       []byte
	keyOver   bool
	id        []byte
	idOver    bool
	chunk     []byte // the bytes being fed
}

// newScanner returns a scanner that tracks the given top-level member names
// (at most len(members)) and keeps the text of the one named idName, if any.
func newScanner(names []string, idName string) *jsonScanner {
	s := &jsonScanner{names: names, idName: -1, key: make([]byte, 0, maxKeyBytes)}
	for i, n := range names {
		if n == idName {
			s.idName = i
			s.id = make([]byte, 0, maxIDBytes)
		}
	}
	s.reset()
	return s
}

// reset readies the scanner for a new line.
func (s *jsonScanner) reset() {
	key, id, names, idName := s.key[:0], s.id[:0], s.names, s.idName
	*s = jsonScanner{names: names, idName: idName, key: key, id: id, cur: -1}
}

// blank reports whether the line held nothing but whitespace.
func (s *jsonScanner) blank() bool { return s.top == 0 && s.err == "" }

// feed scans the next bytes of the line.
func (s *jsonScanner) feed(p []byte) {
	s.chunk = p
	i := 0
	for i < len(p) && s.err == "" {
		switch s.step {
		case stepString:
			i = s.str(p, i)
		case stepNumber:
			i = s.number(p, i)
		default:
			s.byteAt(p[i], i)
			i++
		}
	}
	if s.capturing != captureNone && s.err == "" {
		s.keep(len(p))
		s.capFrom = s.off + len(p)
	}
	s.off += len(p)
	s.chunk = nil
}

// finish ends the line: a number may end with it, nothing else may.
func (s *jsonScanner) finish() {
	if s.err != "" {
		return
	}
	if s.step == stepNumber && s.num != numMinus && s.num != numDot && s.num != numExp && s.num != numExpSign {
		s.valueEnd(s.off)
	}
	if s.top != 0 && s.step != stepDone {
		s.fail("the line ends inside a value", s.off)
	}
}

func (s *jsonScanner) fail(why string, at int) {
	s.err, s.errAt = why, at
	s.capturing = captureNone
}

// failByte fails on the byte at offset i of the chunk.
func (s *jsonScanner) failByte(i int, expected string) {
	c := s.chunk[i]
	if c >= 0x20 && c < 0x7f {
		s.fail(fmt.Sprintf("unexpected %q where %s was expected", c, expected), s.off+i)
	} else {
		s.fail(fmt.Sprintf("unexpected byte 0x%02x where %s was expected", c, expected), s.off+i)
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// byteAt handles the byte at chunk index i between tokens.
func (s *jsonScanner) byteAt(c byte, i int) {
	if isSpace(c) {
		return
	}
	switch s.step {
	case stepValueOrEnd:
		if c == ']' {
			s.close(c, i)
			return
		}
		s.beginValue(c, i)
	case stepValue:
		s.beginValue(c, i)
	case stepKeyOrEnd, stepKey:
		switch {
		case c == '}' && s.step == stepKeyOrEnd:
			s.close(c, i)
		case c == '"':
			s.beginString(true, i)
		default:
			s.failByte(i, "a key")
		}
	case stepColon:
		if c != ':' {
			s.failByte(i, "':'")
			return
		}
		s.step = stepValue
	case stepAfterValue:
		switch {
		case c == ',' && s.inObject():
			s.step = stepKey
		case c == ',':
			s.step = stepValue
		case c == '}' || c == ']':
			s.close(c, i)
		default:
			s.failByte(i, "',' or the end of the container")
		}
	case stepDone:
		s.failByte(i, "the end of the line after the value")
	case stepLiteral:
		if c != s.lit[s.litN] {
			s.failByte(i, fmt.Sprintf("%q", s.lit))
			return
		}
		if s.litN++; s.litN == len(s.lit) {
			s.valueEnd(s.off + i + 1)
		}
	case stepSkim:
		s.skim(c, i)
	}
}

// beginValue starts a value with its first byte.
func (s *jsonScanner) beginValue(c byte, i int) {
	at := s.off + i
	if s.depth == 0 {
		s.top, s.topAt = c, at
	}
	if s.depth == 1 && s.cur >= 0 {
		m := &s.members[s.cur]
		m.kind, m.start = c, at
		if s.cur == s.idName && (c == '"' || c == '-' || c >= '0' && c <= '9') {
			s.capturing, s.capFrom = captureID, at
			s.id, s.idOver = s.id[:0], false
		}
	}
	switch {
	case c == '{' || c == '[':
		s.open(c == '{')
	case c == '"':
		s.beginString(false, i)
	case c == '-':
		s.step, s.num = stepNumber, numMinus
	case c == '0':
		s.step, s.num = stepNumber, numZero
	case c >= '1' && c <= '9':
		s.step, s.num = stepNumber, numInt
	case c == 't':
		s.step, s.lit, s.litN = stepLiteral, "true", 1
	case c == 'f':
		s.step, s.lit, s.litN = stepLiteral, "false", 1
	case c == 'n':
		s.step, s.lit, s.litN = stepLiteral, "null", 1
	default:
		s.failByte(i, "a value")
	}
}

func (s *jsonScanner) beginString(key bool, i int) {
	s.step, s.inKey = stepString, key
	if key && s.depth == 1 {
		s.capturing, s.capFrom, s.keyOver = captureKey, s.off+i+1, false
		s.key = s.key[:0]
	}
}

// open enters a container; beyond maxNesting only the depth is counted.
func (s *jsonScanner) open(object bool) {
	s.depth++
	if s.depth > maxNesting {
		s.tooDeep = true
		s.step = stepSkim
		return
	}
	bit := uint64(1) << ((s.depth - 1) % 64)
	if object {
		s.objects[(s.depth-1)/64] |= bit
		s.step = stepKeyOrEnd
	} else {
		s.objects[(s.depth-1)/64] &^= bit
		s.step = stepValueOrEnd
	}
}

func (s *jsonScanner) inObject() bool {
	return s.objects[(s.depth-1)/64]&(uint64(1)<<((s.depth-1)%64)) != 0
}

// close leaves a container on its closer c.
func (s *jsonScanner) close(c byte, i int) {
	if s.inObject() != (c == '}') {
		s.failByte(i, "the closer of the open container")
		return
	}
	s.depth--
	s.valueEnd(s.off + i + 1)
}

// skim steps over containers nested beyond maxNesting, counting brackets
// outside strings, as the SDK's own depth check does; the message is
// refused anyway, and the line is still read to its end to find the id.
func (s *jsonScanner) skim(c byte, i int) {
	switch c {
	case '"':
		s.step, s.inKey = stepString, false
	case '{', '[':
		s.depth++
	case '}', ']':
		if s.depth--; s.depth == maxNesting {
			s.valueEnd(s.off + i + 1)
		}
	}
}

// valueEnd notes that a value ended at offset end (exclusive).
func (s *jsonScanner) valueEnd(end int) {
	switch {
	case s.depth > maxNesting:
		s.step = stepSkim
		return
	case s.depth == 0:
		s.topEnd, s.step = end, stepDone
		return
	case s.depth == 1 && s.cur >= 0:
		s.members[s.cur].end = end
		if s.capturing == captureID {
			s.keep(end - s.off)
			s.capturing = captureNone
		}
		s.cur = -1
	}
	s.step = stepAfterValue
}

// keyEnd looks the top-level key just read up among the tracked names.
func (s *jsonScanner) keyEnd() {
	s.step = stepColon
	if s.depth != 1 {
		return
	}
	s.capturing = captureNone
	s.cur = -1
	if s.keyOver {
		return
	}
	name := s.key
	if bytes.IndexByte(name, '\\') >= 0 {
		var decoded string
		if json.Unmarshal(append(append([]byte{'"'}, name...), '"'), &decoded) != nil {
			return
		}
		name = []byte(decoded)
	}
	for i, n := range s.names {
		if string(name) == n { // compared without a copy
			s.cur = i
			s.members[i].count++
			return
		}
	}
}

// keep appends the chunk's bytes from the capture's resume point up to
// index to the text being kept, unless that text is over its bound.
func (s *jsonScanner) keep(upto int) {
	from := s.capFrom - s.off
	if from >= upto {
		return
	}
	part := s.chunk[from:upto]
	switch s.capturing {
	case captureKey:
		if s.keyOver = s.keyOver || len(s.key)+len(part) > maxKeyBytes; !s.keyOver {
			s.key = append(s.key, part...)
		}
	case captureID:
		if s.idOver = s.idOver || len(s.id)+len(part) > maxIDBytes; !s.idOver {
			s.id = append(s.id, part...)
		}
	}
}
