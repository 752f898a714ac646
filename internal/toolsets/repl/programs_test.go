package repl

import (
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// Every default program starts under the confinement, answers at its
// prompt, keeps its history in its private HOME, and cannot read
// /etc/shadow; the set of system files they need was found this way.
func TestDefaultProgramsConfined(t *testing.T) {
	testutil.RequireRoot(t)
	tests := []struct {
		command       []string
		eval, want    string // an expression and what its answer contains
		shadow, block string // reading /etc/shadow, and what its refusal contains
		exit          string
	}{
		{[]string{"python3"}, "6*7", "\n42\n", "open('/etc/shadow').read()", "PermissionError", "exit()"},
		{[]string{"node"}, "6*7", "\n42\n", "require('fs').readFileSync('/etc/shadow')", "EACCES", ".exit"},
		// Without --nomultiline irb's line editor waits for the terminal to
		// report its cursor position, which a pseudo-terminal never does.
		{[]string{"irb", "--nomultiline"}, "6*7", "=> 42", "File.read('/etc/shadow')", "Errno::EACCES", "exit"},
		{[]string{"sqlite3"}, "select 6*7;", "\n42\n", ".read /etc/shadow", "cannot open", ".quit"},
	}
	for _, tc := range tests {
		program := tc.command[0]
		t.Run(program, func(t *testing.T) {
			testutil.RequireBinary(t, program)
			s := newConfigSet(t, func(c *config.Config) {})
			st := mustRun[startOut](t, s.start(), startIn{Command: tc.command})
			if !st.Prompt { // a quiet moment before the prompt ended the start's wait
				rd := mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "offset": 0, "timeout_ms": 20000, "until_quiet_ms": 10000})
				st.Output, st.Prompt = rd.Output, rd.Prompt
			}
			if !st.Prompt {
				t.Fatalf("%s did not reach its prompt: %q", program, st.Output)
			}
			if got := eval(t, s, st.ProcID, tc.eval); !strings.Contains(got, tc.want) {
				t.Errorf("%s gave %q, want it to contain %q", tc.eval, got, tc.want)
			}
			if got := eval(t, s, st.ProcID, tc.shadow); !strings.Contains(got, tc.block) {
				t.Errorf("%s gave %q, want it to contain %q", tc.shadow, got, tc.block)
			}
			// Exit writes the history to HOME; any file the program
			// misses at start or exit shows as an error in its output.
			sent := mustRun[sendOut](t, s.send(), sendIn{ProcID: st.ProcID, Input: tc.exit})
			sess, err := s.reg.get(st.ProcID)
			if err != nil {
				t.Fatal(err)
			}
			select {
			case <-sess.done:
			case <-time.After(20 * time.Second):
				t.Fatalf("%s did not exit", program)
			}
			rd := mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "offset": sent.Offset, "timeout_ms": 10000})
			for _, out := range []string{st.Output, rd.Output} {
				if low := strings.ToLower(out); strings.Contains(low, "error") || strings.Contains(low, "denied") || strings.Contains(low, "eacces") {
					t.Errorf("%s reported an error: %q", program, out)
				}
			}
			if rd.State != stateExited || rd.Signal != "" {
				t.Errorf("%s ended: %+v", program, rd)
			}
		})
	}
}
