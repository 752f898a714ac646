// Package admit decides whether the server takes on more work: a gate on
// the calls in flight, a lower one on the calls that start programs (child
// processes or eBPF programs), a token bucket per client, and a gate on the
// HTTP requests being handled. A call beyond them is refused at once with a
// time to retry after, so a flood costs bounded memory and children and the
// server stays responsive to everyone else.
package admit

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
)

// Options size the limits (config's [load] table).
type Options struct {
	MaxCalls           int
	QueuedCalls        int
	MaxProgramCalls    int
	QueuedProgramCalls int
	QueueWait          time.Duration
	CallsPerSecond     float64
	Burst              int
	MaxHTTPRequests    int
}

// Control holds one server's limits. Every transport's calls go through
// its Admit; programs started outside an admitted call take a slot of
// Programs themselves (execx), so no path starts one uncounted.
type Control struct {
	calls    *Gate
	programs *Gate
	http     *Gate
	rates    *Rates
	wait     time.Duration
}

// New builds the limits.
func New(o *Options) *Control {
	return &Control{
		calls: NewGate(GateOptions{Name: "calls", What: "calls", Size: o.MaxCalls, Queue: o.QueuedCalls, Wait: o.QueueWait,
			Settings: "[load] max_calls, queued_calls, queue_wait"}),
		programs: NewGate(GateOptions{Name: "programs", What: "calls that start programs (searches, profiles, traces)",
			Size: o.MaxProgramCalls, Queue: o.QueuedProgramCalls, Wait: o.QueueWait,
			Settings: "[load] max_program_calls, queued_program_calls, queue_wait"}),
		http: NewGate(GateOptions{Name: "http", What: "HTTP requests", Size: o.MaxHTTPRequests,
			Settings: "[load] max_http_requests"}),
		rates: NewRates(o.CallsPerSecond, o.Burst, "[load] calls_per_second, burst", nil),
		wait:  o.QueueWait,
	}
}

// Calls bounds the tool calls in flight.
func (c *Control) Calls() *Gate { return c.calls }

// Programs bounds the calls, and children, that run programs.
func (c *Control) Programs() *Gate { return c.programs }

// HTTP bounds the HTTP requests being handled; it has no queue.
func (c *Control) HTTP() *Gate { return c.http }

// Rates are the clients' token buckets.
func (c *Control) Rates() *Rates { return c.rates }

// Admit lets one call in or refuses it: first the client's rate, then, for
// a call that starts programs, a slot of Programs, then a slot of Calls;
// the two queues together wait at most the queue wait. Programs come
// first so that a flood of searches is turned away at its own gate and
// never crowds the call slots that cheap calls need. The returned context
// marks the call as admitted; release gives its slots back once its work
// has ended. A nil Control admits everything.
//
// A call made from inside an admitted call (an onboarding flow's steps) is
// part of that call: it spends no token and no call slot, and takes a
// program slot only if it needs one and the outer call holds none.
func (c *Control) Admit(ctx context.Context, client string, startsPrograms bool) (context.Context, func(), error) {
	noop := func() {}
	if c == nil {
		return ctx, noop, nil
	}
	deadline := time.Now().Add(c.wait) // for both queues together
	if outer, ok := ctx.Value(ticketKey{}).(*ticket); ok {
		if !startsPrograms || outer.holds(c.programs) {
			return ctx, noop, nil
		}
		return c.enter(ctx, deadline, true, false)
	}
	if r := c.rates.Take(client); r != nil {
		return ctx, nil, r
	}
	return c.enter(ctx, deadline, startsPrograms, true)
}

// AdmitAgain lets a call in once more after it gave its slots back to wait
// for a person's answer: it takes its slots again, queueing as Admit does,
// but spends no token, since the client sent it once. Charging the rerun
// would refuse a yes the person already gave, and the client's retry
// would ask them again.
func (c *Control) AdmitAgain(ctx context.Context, startsPrograms bool) (context.Context, func(), error) {
	if c == nil {
		return ctx, func() {}, nil
	}
	return c.enter(ctx, time.Now().Add(c.wait), startsPrograms, true)
}

// enter takes a program slot if programs, then a call slot if call, and
// marks the context with what it holds.
func (c *Control) enter(ctx context.Context, deadline time.Time, programs, call bool) (context.Context, func(), error) {
	t := &ticket{}
	releaseProg, releaseCall := func() {}, func() {}
	if programs {
		r, err := c.programs.EnterBy(ctx, deadline)
		if err != nil {
			return ctx, nil, err
		}
		t.programs, releaseProg = c.programs, r
		t.held.Store(true)
	}
	if call {
		r, err := c.calls.EnterBy(ctx, deadline)
		if err != nil {
			releaseProg()
			return ctx, nil, err
		}
		releaseCall = r
	}
	return context.WithValue(ctx, ticketKey{}, t), func() {
		t.held.Store(false)
		releaseProg()
		releaseCall()
	}, nil
}

type ticketKey struct{}

// ticket marks a context as an admitted call's, and says which program
// slot it holds, if any.
type ticket struct {
	programs *Gate
	held     atomic.Bool
}

func (t *ticket) holds(g *Gate) bool { return t.programs == g && t.held.Load() }

// Holds reports whether ctx is an admitted call's that holds a slot of g
// now: the children such a call starts run under its slot.
func Holds(ctx context.Context, g *Gate) bool {
	t, ok := ctx.Value(ticketKey{}).(*ticket)
	return ok && t.holds(g)
}

// ErrUndeclared is what starting programs from an Unslotted call fails
// with: a bug in the tool, which the runner reports as INTERNAL.
var ErrUndeclared = errors.New("a call whose tool does not declare tool.Spec.Programs started programs")

// Unslotted reports whether ctx is an admitted call's that holds no program
// slot: the call of a tool that does not declare that it starts programs.
// What starts programs without execx's net (eBPF) refuses such a call, so a
// tool that forgot the declaration fails its first end-to-end test instead
// of running uncounted.
func Unslotted(ctx context.Context) bool {
	t, ok := ctx.Value(ticketKey{}).(*ticket)
	return ok && !t.held.Load()
}
