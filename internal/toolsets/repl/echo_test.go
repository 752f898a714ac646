package repl

import (
	"strings"
	"testing"
)

// A block of lines sent at once is read back whole: a prompt printed before
// the program has taken the block's last line does not end proc_read. The
// block's first line prints a prompt-like ">>> " and sleeps with the rest
// unread, as python does between the lines of a block (there only for
// microseconds, which made reads end early now and then).
func TestPromptBeforeTheBlockIsReadDoesNotEndTheRead(t *testing.T) {
	s := newTestSet(t, nil)
	st := startPython(t, s)
	block := func(sleep string) string {
		return "import time; print('>>> ', end='', flush=True); time.sleep(" + sleep + ")\nx = 6\nprint('answer', x*7)"
	}
	sent := mustRun[sendOut](t, s.send(), sendIn{ProcID: st.ProcID, Input: block("1")})
	rd := mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "offset": sent.Offset, "timeout_ms": 20000, "until_quiet_ms": 10000})
	if !rd.Prompt || !strings.HasSuffix(rd.Output, "answer 42\n>>> ") {
		t.Fatalf("one read should return the whole block's output: %+v", rd)
	}

	// A read in the middle of the block reports no prompt (the sleep leaves
	// a wide margin over the read's 500 ms).
	sent = mustRun[sendOut](t, s.send(), sendIn{ProcID: st.ProcID, Input: block("3")})
	rd = mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "offset": sent.Offset, "timeout_ms": 500, "until_quiet_ms": 300})
	if rd.Prompt || strings.Contains(rd.Output, "answer") {
		t.Fatalf("mid-block, while the program sleeps: %+v", rd)
	}
}

// What a send waits to see echoed: the block's last non-empty line and the
// line ends after it (a compound statement's closing empty line included).
func TestAwaitEcho(t *testing.T) {
	for _, tc := range []struct {
		pty    bool
		text   string
		want   string
		breaks int
	}{
		{true, "2+2\r", "", 0},                                 // one line: the prompt after it is the answer's
		{true, "ctrl", "", 0},                                  // no line end at all
		{false, "a = 1\nb = 2\n", "", 0},                       // pipes echo nothing
		{true, "a = 1\nb = 2\r", "b = 2", 1},                   // a block
		{true, "for i in x:\n  print(i)\n\r", "print(i)", 2},   // closed by an empty line
		{true, "a\r\nb\r\n\r\n", "b", 2},                       // CRLF counts once
		{true, "a\n" + strings.Repeat("x", 200) + "\r", "", 0}, // too long to come back whole
	} {
		s := &session{pty: tc.pty}
		s.awaitEchoLocked(tc.text, 0)
		if s.echoWant != tc.want || s.echoBreaks != tc.breaks {
			t.Errorf("%q: awaits %q and %d line ends, want %q and %d", tc.text, s.echoWant, s.echoBreaks, tc.want, tc.breaks)
		}
	}
}
