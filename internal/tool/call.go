package tool

import (
	"context"
	"fmt"
	"sync"
)

// HandleSink stores a large payload and returns its handle id. The server
// backs it with the store; tests use a map.
type HandleSink func(ctx context.Context, typ string, meta map[string]any, payload []byte) (string, error)

// LaterHandleSink is HandleSink for a payload written after the call
// answered: size is exactly len(encode()), which the sink calls once, on
// a goroutine of its own or, when it cannot defer the write, before it
// returns.
type LaterHandleSink func(ctx context.Context, typ string, meta map[string]any, size int64, encode func() []byte) (string, error)

// ProgressFunc sends one progress notification to the client.
type ProgressFunc func(ctx context.Context, progress, total float64, message string)

// ClientRootsFunc lists the client's MCP roots as absolute paths. declared
// is false when the client did not declare the roots capability, which
// leaves the configured roots as they are.
type ClientRootsFunc func(ctx context.Context) (paths []string, declared bool, err error)

// Call is what a handler knows about the call it serves beyond its input:
// who called, and the shared mechanisms it may use (warnings, handles,
// progress, the other served tools).
type Call struct {
	Tool    string
	Session string

	handles     HandleSink
	later       LaterHandleSink
	idAhead     func(typ string)
	progress    ProgressFunc
	clientRoots ClientRootsFunc
	tools       Caller

	// The answer's bound, for DataBudget.
	outputCap int

	mu           sync.Mutex
	warnings     []string
	moreWarnings int
	links        []Link
	sent         progressGate

	facts []Fact // what the tool's previews must give (Spec.Facts)
	gate  gate
}

// maxWarnings bounds the warnings of one call: a tool that warns once per
// file or per hunk must not grow the envelope past its output cap.
const maxWarnings = 50

// newCall is the Call of one invocation under the tool's limits.
func (r *Runner) newCall(inv Invocation, lim Limits) *Call {
	return &Call{
		Tool: inv.Def.Spec.Name, Session: inv.Session,
		handles: r.Handles, later: r.HandlesLater, idAhead: r.HandleIDAhead, progress: inv.Progress, clientRoots: inv.ClientRoots, tools: inv.Tools,
		outputCap: lim.OutputCap, facts: inv.Def.Spec.Facts, gate: gate{policy: r.Confirm, asking: inv.Asking},
	}
}

// HandleLikely says the call will likely keep a handle of typ (a search
// whose hits may pass max_results), so that the store chooses and checks
// its ID now, while the call works, rather than on the answer's path. It
// changes nothing the call answers.
func (c *Call) HandleLikely(typ string) {
	if c.idAhead != nil {
		c.idAhead(typ)
	}
}

// nextAttempt readies the call to run its handler again after a person
// accepted the preview whose state is accepted: what the last attempt
// warned of or linked to is dropped with it. Progress carries on.
func (c *Call) nextAttempt(accepted string) {
	c.mu.Lock()
	c.warnings, c.moreWarnings, c.links = nil, 0, nil
	c.mu.Unlock()
	c.gate = gate{policy: c.gate.policy, asking: c.gate.asking, accepted: accepted}
}

// Warn adds a warning to the envelope: something was degraded, skipped or
// approximated, and the agent should know. Each is cut at MaxMessageBytes,
// and past maxWarnings they are only counted.
func (c *Call) Warn(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.warnings) == maxWarnings {
		c.moreWarnings++
		return
	}
	c.warnings = append(c.warnings, clipTo(fmt.Sprintf(format, args...), MaxMessageBytes))
}

// Warnings returns the warnings added so far.
func (c *Call) Warnings() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append([]string(nil), c.warnings...)
	if c.moreWarnings > 0 {
		out = append(out, fmt.Sprintf("%d more warnings were left out", c.moreWarnings))
	}
	return out
}

// PutHandle stores payload as a handle the agent can page with handle_read,
// and links the answer to it.
func (c *Call) PutHandle(ctx context.Context, typ string, meta map[string]any, payload []byte) (string, error) {
	if c.handles == nil {
		return "", Errorf(Internal, "no handle store is configured")
	}
	id, err := c.handles(ctx, typ, meta, payload)
	return c.linked(id, err, typ, meta, int64(len(payload)))
}

// linked links the answer to the handle id of size bytes a sink just
// stored, or says why it could not.
func (c *Call) linked(id string, err error, typ string, meta map[string]any, size int64) (string, error) {
	if err != nil {
		return "", Wrap(Internal, err, "storing a handle: %v", err)
	}
	c.Link(HandleLink(id, typ, meta, size))
	return id, nil
}

// putHandleLater is PutHandle for a payload of exactly size bytes that
// encode writes after the answer (LaterHandleSink); c.later is set.
func (c *Call) putHandleLater(ctx context.Context, typ string, meta map[string]any, size int64, encode func() []byte) (string, error) {
	id, err := c.later(ctx, typ, meta, size, encode)
	return c.linked(id, err, typ, meta, size)
}

// ClientRoots lists the calling client's MCP roots (see ClientRootsFunc);
// declared is false when there is no client to ask or it has no roots.
func (c *Call) ClientRoots(ctx context.Context) (paths []string, declared bool, err error) {
	if c == nil || c.clientRoots == nil {
		return nil, false, nil
	}
	return c.clientRoots(ctx)
}
