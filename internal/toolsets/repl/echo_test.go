package repl

import (
	"strings"
	"testing"
	"time"
)

// A block of lines sent at once is read back whole: a prompt printed before
// the program has taken the block's last line does not end proc_read. The
// block's first line prints a prompt-like ">>> " and sleeps with the rest
// unread, as python does between the lines of a block (there only for
// microseconds, which made reads end early now and then).
func TestPromptBeforeTheBlockIsReadDoesNotEndTheRead(t *testing.T) {
	s := newTestSet(t, nil)
	st := startPython(t, s)
	block := "import time; print('>>> ', end='', flush=True); time.sleep(1)\nx = 6\nprint('answer', x*7)"
	sent := mustRun[sendOut](t, s.send(), sendIn{ProcID: st.ProcID, Input: block})
	began := time.Now()
	rd := mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "offset": sent.Offset, "timeout_ms": 20000, "until_quiet_ms": 10000})
	if !rd.Prompt || !strings.HasSuffix(rd.Output, "answer 42\n>>> ") {
		t.Fatalf("one read should return the whole block's output: %+v", rd)
	}
	if waited := time.Since(began); waited < time.Second || waited > 5*time.Second {
		t.Errorf("the read took %s: it should end at the prompt after the block, about 1 s", waited)
	}

	// A read in the middle of the block reports no prompt.
	sent = mustRun[sendOut](t, s.send(), sendIn{ProcID: st.ProcID, Input: block})
	rd = mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "offset": sent.Offset, "timeout_ms": 500, "until_quiet_ms": 300})
	if rd.Prompt || strings.Contains(rd.Output, "answer") {
		t.Fatalf("mid-block, while the program sleeps: %+v", rd)
	}
}
