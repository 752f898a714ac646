package repl

import "strings"

// maxEchoLine is the longest last line whose echo is awaited: the terminal
// is termSize.Cols wide, and a longer line may come back wrapped or
// redrawn by the program's line editor.
const maxEchoLine = 150

// awaitEchoLocked notes, for a block of several lines typed into a terminal
// (text as written, Enter included), its last non-empty line and how many
// line ends follow it. Until the program has echoed that line and those
// line ends, a prompt at the end of the output is one printed between the
// block's lines (python's "... " and ">>> " while it reads the rest, which
// its line editor has already taken from the terminal), not one waiting
// for the agent. s.mu must be held.
func (s *session) awaitEchoLocked(text string, from int64) {
	s.echoWant, s.echoBreaks, s.echoFrom = "", 0, from
	if !s.pty {
		return // nothing is echoed down a pipe
	}
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n"), "\n")
	// lines ends with the text after the last line end: "" for a whole line.
	last := len(lines) - 1
	for last >= 0 && strings.TrimSpace(lines[last]) == "" {
		last--
	}
	breaks := len(lines) - 1 - last // line ends from the last non-empty line on
	if last < 0 || len(lines) < 3 || breaks < 1 || len(lines[last]) > maxEchoLine {
		return // one line, or nothing to wait for
	}
	s.echoWant, s.echoBreaks = strings.TrimSpace(lines[last]), breaks
}

// echoedLocked reports whether the awaited echo has come (or none is
// awaited). s.mu must be held.
func (s *session) echoedLocked() bool {
	if s.echoWant == "" {
		return true
	}
	data, _, _ := s.buf.read(s.echoFrom, int(min(s.buf.end()-s.echoFrom, 4*maxInput)))
	out := clean(data)
	i := strings.Index(out, s.echoWant)
	if i < 0 || strings.Count(out[i:], "\n") < s.echoBreaks {
		return false
	}
	s.echoWant = ""
	return true
}
