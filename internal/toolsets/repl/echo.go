package repl

import "strings"

// maxEchoLine is the longest last line whose echo is awaited: the terminal
// is termSize.Cols wide, and a longer line may come back wrapped or
// redrawn by the program's line editor.
const maxEchoLine = 150

// awaitEchoLocked notes the last line of a block of several lines typed into
// a terminal. Until the program has echoed it, a prompt at the end of the
// output is one printed between the block's lines (python's "... " and
// ">>> " while it reads the rest, which its line editor has already taken
// from the terminal), not one waiting for the agent. s.mu must be held.
func (s *session) awaitEchoLocked(input string, from int64) {
	s.echoWant, s.echoFrom = "", from
	if !s.pty {
		return // nothing is echoed down a pipe
	}
	var lines []string
	for l := range strings.FieldsFuncSeq(input, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) < 2 || len(lines[len(lines)-1]) > maxEchoLine {
		return
	}
	s.echoWant = lines[len(lines)-1]
}

// echoedLocked reports whether the awaited echo has come (or none is
// awaited). s.mu must be held.
func (s *session) echoedLocked() bool {
	if s.echoWant == "" {
		return true
	}
	data, _, _ := s.buf.read(s.echoFrom, int(min(s.buf.end()-s.echoFrom, 4*maxInput)))
	if !strings.Contains(clean(data), s.echoWant) {
		return false
	}
	s.echoWant = ""
	return true
}
