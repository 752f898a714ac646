package tool

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// HandleSink stores a large payload and returns its handle id. The server
// backs it with the store; tests use a map.
type HandleSink func(ctx context.Context, typ string, meta map[string]any, payload []byte) (string, error)

// ProgressFunc sends one progress notification to the client.
type ProgressFunc func(ctx context.Context, progress, total float64, message string)

// ClientRootsFunc lists the client's MCP roots as absolute paths. declared
// is false when the client did not declare the roots capability, which
// leaves the configured roots as they are.
type ClientRootsFunc func(ctx context.Context) (paths []string, declared bool, err error)

// Call is what a handler knows about the call it serves beyond its input:
// who called, and the shared mechanisms it may use (warnings, handles,
// progress).
type Call struct {
	Tool    string
	Session string

	handles     HandleSink
	progress    ProgressFunc
	clientRoots ClientRootsFunc

	// What the envelope around the data holds, for DataBudget.
	outputCap     int
	version, host string

	mu           sync.Mutex
	warnings     []string
	links        []Link
	lastProgress time.Time
}

// newCall is the Call of one invocation under the tool's limits.
func (r *Runner) newCall(inv Invocation, lim Limits) *Call {
	return &Call{
		Tool: inv.Def.Spec.Name, Session: inv.Session,
		handles: r.Handles, progress: inv.Progress, clientRoots: inv.ClientRoots,
		outputCap: lim.OutputCap, version: r.Version, host: r.Host,
	}
}

// Warn adds a warning to the envelope: something was degraded, skipped or
// approximated, and the agent should know.
func (c *Call) Warn(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.warnings = append(c.warnings, fmt.Sprintf(format, args...))
}

// Warnings returns the warnings added so far.
func (c *Call) Warnings() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.warnings...)
}

// PutHandle stores payload as a handle the agent can page with handle_read,
// and links the answer to it.
func (c *Call) PutHandle(ctx context.Context, typ string, meta map[string]any, payload []byte) (string, error) {
	if c.handles == nil {
		return "", Errorf(Internal, "no handle store is configured")
	}
	id, err := c.handles(ctx, typ, meta, payload)
	if err != nil {
		return "", Wrap(Internal, err, "storing a handle: %v", err)
	}
	c.Link(HandleLink(id, typ, meta, int64(len(payload))))
	return id, nil
}

// ClientRoots lists the calling client's MCP roots (see ClientRootsFunc);
// declared is false when there is no client to ask or it has no roots.
func (c *Call) ClientRoots(ctx context.Context) (paths []string, declared bool, err error) {
	if c == nil || c.clientRoots == nil {
		return nil, false, nil
	}
	return c.clientRoots(ctx)
}

// progressEvery bounds notifications so a chatty loop cannot flood the client.
const progressEvery = 250 * time.Millisecond

// Progress reports how far a long call is. It does nothing when the client
// sent no progress token; it drops updates closer than 250 ms apart except
// the final one (progress == total).
func (c *Call) Progress(ctx context.Context, progress, total float64, message string) {
	if c.progress == nil {
		return
	}
	c.mu.Lock()
	now := time.Now()
	if progress < total && now.Sub(c.lastProgress) < progressEvery {
		c.mu.Unlock()
		return
	}
	c.lastProgress = now
	c.mu.Unlock()
	c.progress(ctx, progress, total, message)
}

// Sleep waits for d or until ctx ends, whichever is first; sampling tools use
// it so a cancelled call stops at once.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
