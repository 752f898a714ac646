package repl

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// sendIn is the input of proc_send.
type sendIn struct {
	ProcID  string   `json:"proc_id" jsonschema:"from proc_start"`
	Input   string   `json:"input,omitempty" jsonschema:"text, typed as is"`
	Newline *bool    `json:"newline,omitempty" jsonschema:"press Enter after input" default:"true"`
	Keys    []string `json:"keys,omitempty" jsonschema:"after input: ctrl-a..ctrl-z, enter, tab, esc, backspace, delete, up, down, left, right, home, end, pageup, pagedown"`
	DryRun  bool     `json:"dry_run,omitempty"`
}

// sendOut is the answer of proc_send.
type sendOut struct {
	ProcID       string     `json:"proc_id" jsonschema:"the session"`
	BytesWritten int        `json:"bytes_written" jsonschema:"bytes written to the program's terminal or stdin"`
	Offset       int64      `json:"offset" jsonschema:"stream offset when the input was sent: proc_read with this offset shows the program's reaction, echo included"`
	State        string     `json:"state" jsonschema:"running or exited"`
	Plan         *tool.Plan `json:"plan,omitempty" jsonschema:"dry run: what it would type; nothing is written"`
}

// maxInput bounds one proc_send; a terminal takes input at its own pace.
const maxInput = 64 << 10

// writeTimeout bounds a write to a program that is not reading its input.
const writeTimeout = 5 * time.Second

func (s *Set) send() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "proc_send",
		Kind:        tool.Destructive, // runs code of the agent's choosing, which may change or delete anything the session can reach
		Title:       "Send input to a session",
		Description: "Type text (then Enter) and keys such as ctrl-c into a session; read the result with proc_read.",
		Timeout:     15 * time.Second,
		Facts:       sendFacts,
	}, s.handleSend).WithMaxLength("input", maxInput)
}

func (s *Set) handleSend(ctx context.Context, call *tool.Call, in sendIn) (sendOut, error) {
	sess, err := s.reg.get(in.ProcID)
	if err != nil {
		return sendOut{}, err
	}
	if len(in.Input) > maxInput {
		return sendOut{}, tool.Errorf(tool.InvalidArgument, "input is %d bytes; at most %d per call", len(in.Input), maxInput).
			WithSuggestion("Send the text in several calls, or write it to a file and load that.")
	}
	text := in.Input
	if in.Input != "" && (in.Newline == nil || *in.Newline) {
		text += sess.enter()
	}
	steps := []string{text}
	for _, k := range in.Keys {
		kb, err := keyBytes(k)
		if err != nil {
			return sendOut{}, tool.Errorf(tool.InvalidArgument, "keys: %v", err)
		}
		if kb == "\r" {
			kb = sess.enter()
		}
		steps = append(steps, kb)
	}
	p := sendPreview(sess, in, steps)
	if in.DryRun {
		sess.mu.Lock()
		out := sendOut{ProcID: sess.id, Offset: sess.buf.end(), State: sess.statusLocked().State}
		sess.mu.Unlock()
		out.Plan, err = call.DryRun(p)
		return out, err
	}
	if err := call.Confirm(p); err != nil {
		return sendOut{}, err
	}
	sess.mu.Lock()
	out := sendOut{ProcID: sess.id, Offset: sess.buf.end(), State: sess.statusLocked().State}
	sess.lastActivity = time.Now()
	sess.awaitEchoLocked(text, out.Offset)
	sess.mu.Unlock()
	if out.State == stateExited {
		return out, tool.Errorf(tool.ExecutionFailed, "session %s has exited; its output can still be read", sess.id).
			WithSuggestion("Read what it printed with proc_read, or start a new session with proc_start.")
	}
	n, err := sess.press(steps)
	out.BytesWritten = n
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return out, tool.Errorf(tool.Timeout, "the program took only %d bytes in %s: it is not reading its input", n, writeTimeout).
			WithSuggestion("Read its output with proc_read, or interrupt it with keys [\"ctrl-c\"].")
	case err != nil:
		return out, tool.Errorf(tool.ExecutionFailed, "writing to session %s: the program closed its input or exited", sess.id).
			WithSuggestion("Read its output and state with proc_read.")
	}
	return out, nil
}

// enter is what pressing Enter sends: CR on a terminal, as a keyboard
// does; LF down a pipe, where no line discipline translates it.
func (s *session) enter() string {
	if s.pty {
		return "\r"
	}
	return "\n"
}

// press writes each step in order. Without a PTY there is no line
// discipline to turn control keys into signals, so press acts them out as a
// terminal would: ctrl-c, ctrl-z and ctrl-\ signal the process group and
// ctrl-d closes stdin.
func (s *session) press(steps []string) (int, error) {
	written := 0
	for _, st := range steps {
		if !s.pty {
			if sig, ok := pipeSignals[st]; ok {
				if err := s.kill(sig); err != nil {
					return written, err
				}
				continue
			}
			if st == "\x04" {
				if err := s.in.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
					return written, err
				}
				continue
			}
		}
		n, err := s.write([]byte(st))
		written += n
		if err != nil {
			return written, err
		}
	}
	return written, nil
}

// write sends b to the program, bounded by writeTimeout.
func (s *session) write(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	_ = s.in.SetWriteDeadline(time.Now().Add(writeTimeout))
	return s.in.Write(b)
}
