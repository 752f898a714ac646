package tool

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
)

// Caller runs a served tool by name in-process, through the same runner,
// audit and metrics as a client's call (server.Server is one).
type Caller interface {
	Call(ctx context.Context, name string, args json.RawMessage) (Result, error)
}

// Dispatch is a Caller that exists before the server does: toolsets whose
// tools call other tools (the onboarding flows) are built first and hold
// it; the server is set into it once built.
type Dispatch struct {
	mu sync.RWMutex
	c  Caller
}

// Set makes d call through c.
func (d *Dispatch) Set(c Caller) {
	d.mu.Lock()
	d.c = c
	d.mu.Unlock()
}

// Serves reports whether the Caller set serves the tool named name, when it
// can tell (server.Server can); a flow leaves out the steps of tools the
// operator did not enable rather than report them failing.
func (d *Dispatch) Serves(name string) bool {
	d.mu.RLock()
	c := d.c
	d.mu.RUnlock()
	s, ok := c.(interface{ Serves(string) bool })
	return ok && s.Serves(name)
}

// Call runs the tool named name through the Caller set, if any.
func (d *Dispatch) Call(ctx context.Context, name string, args json.RawMessage) (Result, error) {
	d.mu.RLock()
	c := d.c
	d.mu.RUnlock()
	if c == nil {
		return Result{}, errors.New("no server to call tools through")
	}
	return c.Call(ctx, name, args)
}
