package repl

import (
	"context"
	"time"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// readIn is the input of proc_read.
type readIn struct {
	ProcID       string `json:"proc_id" jsonschema:"session id from proc_start"`
	TimeoutMs    *int   `json:"timeout_ms,omitempty" jsonschema:"longest wait for new output, in ms, 0 to 30000; 0 returns what is buffered at once; default 1000"`
	Offset       *int64 `json:"offset,omitempty" jsonschema:"stream offset to read from (next_offset of an earlier answer, or proc_send's offset); default where the last read ended"`
	Tail         int    `json:"tail,omitempty" jsonschema:"return only the last this many bytes buffered, ignoring offset; 1 to 32768"`
	UntilQuietMs *int   `json:"until_quiet_ms,omitempty" jsonschema:"once output arrives, keep waiting until a prompt appears or none has come for this long, in ms, 0 to 10000; default 200"`
	MaxBytes     int    `json:"max_bytes,omitempty" jsonschema:"most bytes of output returned, 256 to 32768; default 16384; more shows as more=true"`
	StripANSI    *bool  `json:"strip_ansi,omitempty" jsonschema:"remove terminal escape sequences and turn CRLF into LF; default true"`
}

// readOut is the answer of proc_read.
type readOut struct {
	ProcID string `json:"proc_id" jsonschema:"the session"`
	PID    int    `json:"pid" jsonschema:"process id of the program"`
	chunk
}

const (
	defaultReadWait  = time.Second
	defaultReadQuiet = 200 * time.Millisecond
	defaultReadBytes = 16 << 10
)

func (s *Set) read() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "proc_read",
		Kind:        tool.ReadOnly,
		Title:       "Read a session's output",
		Description: "Read a session's output from where the last read ended (or an offset), waiting for new output until a prompt or quiet; also reports its state and exit code.",
		Timeout:     40 * time.Second,
	}, s.handleRead).
		WithRange("timeout_ms", 0, 30000).
		WithRange("tail", 1, 32768).
		WithRange("until_quiet_ms", 0, 10000).
		WithRange("max_bytes", 256, 32768)
}

func (s *Set) handleRead(ctx context.Context, call *tool.Call, in readIn) (readOut, error) {
	sess, err := s.reg.get(in.ProcID)
	if err != nil {
		return readOut{}, err
	}
	wait, quiet, limit := defaultReadWait, defaultReadQuiet, defaultReadBytes
	if in.TimeoutMs != nil {
		wait = time.Duration(*in.TimeoutMs) * time.Millisecond
	}
	if in.UntilQuietMs != nil {
		quiet = time.Duration(*in.UntilQuietMs) * time.Millisecond
	}
	if in.MaxBytes > 0 {
		limit = in.MaxBytes
	}
	if in.Offset != nil && *in.Offset < 0 {
		return readOut{}, tool.Errorf(tool.InvalidArgument, "offset %d: must be 0 or more", *in.Offset)
	}
	// Leave time to answer before the call's own deadline.
	deadline := time.Now().Add(wait)
	if d, ok := ctx.Deadline(); ok {
		if limit := d.Add(-500 * time.Millisecond); limit.Before(deadline) {
			deadline = limit
		}
	}
	sess.mu.Lock()
	from := sess.cursor
	sess.lastActivity = time.Now()
	sess.mu.Unlock()
	if in.Offset != nil {
		from = *in.Offset
	}
	if in.Tail == 0 {
		sess.wait(ctx, waitRule{from: from, quiet: quiet, deadline: deadline})
	}
	return readOut{
		ProcID: sess.id,
		PID:    sess.pid,
		chunk:  sess.collect(from, in.Tail, limit, in.StripANSI == nil || *in.StripANSI),
	}, nil
}
