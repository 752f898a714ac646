package repl

import (
	"context"
	"time"
)

// waitRule says when a wait for output is over: at the deadline, when the
// session exits, or once output past from has arrived and then either a
// prompt ends it or it has been quiet for quiet (at once when quiet is 0).
type waitRule struct {
	from     int64
	quiet    time.Duration
	deadline time.Time
}

// promptWindow is how much of the newest output is searched for a prompt.
const promptWindow = 512

// wait blocks until rule is met or ctx ends.
func (s *session) wait(ctx context.Context, rule waitRule) {
	for {
		s.mu.Lock()
		end, exited, changed, last := s.buf.end(), s.exited, s.changed, s.lastOutput
		var tail []byte
		if end > rule.from {
			tail, _, _ = s.buf.read(max(rule.from, end-promptWindow), promptWindow)
		}
		echoed := s.echoedLocked()
		s.mu.Unlock()
		now := time.Now()
		if exited || !now.Before(rule.deadline) {
			return
		}
		next := rule.deadline
		if end > rule.from {
			if rule.quiet <= 0 || (echoed && endsWithPrompt(clean(tail))) || now.Sub(last) >= rule.quiet {
				return
			}
			if q := last.Add(rule.quiet); q.Before(next) {
				next = q
			}
		}
		t := time.NewTimer(next.Sub(now))
		select {
		case <-changed:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return
		}
		t.Stop()
	}
}

// chunk is a window of a session's output and the session's state.
type chunk struct {
	Output       string `json:"output" jsonschema:"the output in this window; escape sequences removed and CRLF turned to LF unless strip_ansi was false"`
	Offset       int64  `json:"offset" jsonschema:"stream offset (bytes since the session started) of the first byte of output"`
	NextOffset   int64  `json:"next_offset" jsonschema:"offset to pass to proc_read for what follows"`
	DroppedBytes int64  `json:"dropped_bytes" jsonschema:"bytes before offset that were no longer buffered (repl.buffer_bytes) and are lost"`
	More         bool   `json:"more" jsonschema:"more output is already buffered past next_offset"`
	Prompt       bool   `json:"prompt" jsonschema:"the output ends with what looks like a prompt waiting for input (after a block of lines sent at once, only once the program has echoed its last line)"`
	status
}

// status is how a session stands.
type status struct {
	State      string `json:"state" jsonschema:"running or exited"`
	ExitCode   *int   `json:"exit_code,omitempty" jsonschema:"exit status once exited; -1 when a signal ended it"`
	Signal     string `json:"signal,omitempty" jsonschema:"the signal that ended it, like SIGKILL"`
	StopReason string `json:"stop_reason,omitempty" jsonschema:"why the server stopped it: proc_stop, the idle timeout or the lifetime limit"`
}

// statusLocked reports the session's state; s.mu must be held.
func (s *session) statusLocked() status {
	st := status{State: stateRunning, StopReason: s.stopReason}
	if s.exited {
		code := s.exitCode
		st.State, st.ExitCode, st.Signal = stateExited, &code, s.signal
	}
	return st
}

// collect reads up to limit bytes from off (or the last tail bytes when
// tail > 0), holding back an escape sequence or character the next output
// will complete, and moves the read cursor past what it returns.
func (s *session) collect(off int64, tail, limit int, strip bool) chunk {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tail > 0 {
		off = max(s.buf.start(), s.buf.end()-int64(tail))
		limit = tail
	}
	data, from, dropped := s.buf.read(off, limit)
	if !s.exited {
		data = data[:complete(data)]
	}
	c := chunk{
		Offset:       from,
		NextOffset:   from + int64(len(data)),
		DroppedBytes: dropped,
		status:       s.statusLocked(),
	}
	c.More = c.NextOffset < s.buf.end()
	text := clean(data)
	c.Prompt = !c.More && endsWithPrompt(text) && s.echoedLocked()
	if strip {
		c.Output = text
	} else {
		c.Output = string(data)
	}
	s.cursor = max(s.cursor, c.NextOffset)
	s.lastActivity = time.Now()
	return c
}
