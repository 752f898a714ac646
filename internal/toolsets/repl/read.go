package repl

import (
	"context"
	"time"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// readIn is the input of proc_read.
type readIn struct {
	ProcID       string `json:"proc_id" jsonschema:"from proc_start"`
	TimeoutMs    *int   `json:"timeout_ms,omitempty" jsonschema:"longest wait for output" default:"1000"`
	Offset       *int64 `json:"offset,omitempty" jsonschema:"an earlier next_offset; default: after the last read"`
	Tail         int    `json:"tail,omitempty" jsonschema:"only the last this many bytes"`
	UntilQuietMs *int   `json:"until_quiet_ms,omitempty" jsonschema:"after output, wait for a prompt or this much quiet" default:"200"`
	MaxBytes     int    `json:"max_bytes,omitempty" default:"16384"`
	StripANSI    *bool  `json:"strip_ansi,omitempty" jsonschema:"drop terminal escapes" default:"true"`
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
		Description: "Read a session's new output, waiting for a prompt or quiet, with its state and exit code.",
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
