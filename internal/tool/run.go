package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/hostmcp/hostmcp/internal/admit"
)

// Limits are the time and size bounds of one tool, resolved from its spec
// and the configuration.
type Limits struct {
	Timeout   time.Duration
	OutputCap int
}

// Runner executes tool definitions and wraps their results in envelopes. It
// is the one path every call takes, from MCP and from `hostmcp call` alike.
type Runner struct {
	Host    string
	Version string
	Handles HandleSink
	// HandlesLater, when set, keeps the lines of PutLines written after
	// the answer; Handles is still needed, and used for every other put.
	HandlesLater LaterHandleSink
	// HandleIDAhead, when set, chooses and checks the ID of a handle of
	// the type given that a call will likely keep (Call.HandleLikely),
	// off the answer's path.
	HandleIDAhead func(typ string)
	// Limits resolves a tool's bounds; nil means the spec's, with a 15 s
	// timeout and a 64 KiB cap where the spec says nothing.
	Limits func(spec Spec) Limits
	// Grace is how long a handler may take to return after its context was
	// cancelled before the call is answered without it; default 250 ms.
	Grace time.Duration
	// Admission lets calls in or refuses them (BUSY, RATE_LIMITED) before
	// their handler runs; nil admits every call.
	Admission *admit.Control
	// Confirm says which calls need a person's yes ([confirm]); nil means
	// none do.
	Confirm *ConfirmPolicy
	Now     func() time.Time
}

// Invocation is one call's request side.
type Invocation struct {
	Def     *Def
	Args    json.RawMessage
	Session string
	// Client identifies the caller for its rate limit: the bearer token
	// over HTTP, the session on stdio.
	Client   string
	Progress ProgressFunc // nil when the client sent no progress token
	// ClientRoots lists the calling client's MCP roots; nil when the
	// transport has no client to ask (the CLI).
	ClientRoots ClientRootsFunc
	// Tools runs the other served tools, for a tool that calls them
	// (Call.Tools); the server sets itself. nil outside a server.
	Tools Caller
	// Asking is how the caller's client can ask a person to confirm the
	// call; nil when it cannot (the CLI, a tool's own flow).
	Asking *Asking
}

// Result is one call's answer: the envelope and its compact JSON, which is
// both the structuredContent and the text content, the call's provenance
// for the result's _meta, and on success the handles and artifacts it
// points to.
type Result struct {
	Envelope   Envelope
	JSON       []byte
	Provenance Provenance
	Err        *Error // nil on success
	Duration   time.Duration
	Links      []Link
	// Confirmation is what came of [confirm] for the call, for its record.
	Confirmation Confirmation
	// Ask, when set, is a question for a person that the client is to
	// ask before it calls again with the answer (protocol 2026-07-28);
	// the call changed nothing, and Envelope and JSON are empty.
	Ask *Question
}

const (
	defaultTimeout   = 15 * time.Second
	defaultOutputCap = 64 * 1024
)

func (r *Runner) limits(spec Spec) Limits {
	if r.Limits != nil {
		return r.Limits(spec)
	}
	l := Limits{Timeout: spec.Timeout, OutputCap: spec.OutputCap}
	if l.Timeout <= 0 {
		l.Timeout = defaultTimeout
	}
	if l.OutputCap <= 0 {
		l.OutputCap = defaultOutputCap
	}
	return l
}

// Run executes one call. It always returns a Result: failures are envelopes
// with success false, never Go errors, so every transport reports them alike.
func (r *Runner) Run(ctx context.Context, inv Invocation) Result {
	now := time.Now
	if r.Now != nil {
		now = r.Now
	}
	start := now()
	lim := r.limits(inv.Def.Spec)
	call := r.newCall(inv, lim)

	data, ask, err := r.attempts(ctx, inv, call, lim)
	if ask != nil {
		return Result{Ask: ask, Confirmation: ConfirmAsked, Duration: now().Sub(start)}
	}
	var env Envelope
	var terr *Error
	if err == nil {
		env.Success = true
		if err = r.setData(ctx, call, &env, data, lim.OutputCap); err != nil {
			env.Success = false
		}
	}
	if err != nil {
		terr = AsError(err)
		env.Error = terr.info()
		env.Data = nil
	}
	env.Warnings = call.Warnings()
	js, merr := env.JSON()
	if merr != nil { // only reachable through a bug in Envelope itself
		panic(fmt.Sprintf("marshaling envelope: %v", merr))
	}
	elapsed := now().Sub(start)
	prov := Provenance{
		Tool: inv.Def.Spec.Name, ToolVersion: r.Version, Host: r.Host,
		Timestamp: start.UTC().Format(time.RFC3339Nano), DurationMS: elapsed.Milliseconds(),
	}
	res := Result{Envelope: env, JSON: js, Provenance: prov, Err: terr, Duration: elapsed, Confirmation: call.gate.outcome}
	if terr == nil {
		res.Links = call.Links()
	}
	return res
}

// invoke runs the handler under the tool's timeout. A handler that ignores
// its context is abandoned after the grace period so the call still answers
// in time; its goroutine ends when the handler finally returns, and only
// then gives back the call's admission slots (release): until then its
// work, and any child it started, is still in flight.
func (r *Runner) invoke(ctx context.Context, inv Invocation, call *Call, timeout time.Duration, release func()) (any, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type answer struct {
		data any
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		var a answer
		// The slots go back before the answer does: the agent's next
		// call, sent on this answer, must not find them still held.
		defer func() {
			if p := recover(); p != nil {
				a = answer{err: Errorf(Internal, "the tool panicked: %v", p)}
			}
			release()
			done <- a
		}()
		a.data, a.err = inv.Def.invoke(ctx, call, inv.Args)
	}()
	var a answer
	select {
	case a = <-done:
	case <-ctx.Done():
		grace := r.Grace
		if grace <= 0 {
			grace = 250 * time.Millisecond
		}
		select {
		case a = <-done:
		case <-time.After(grace):
			a = answer{err: ctx.Err()}
		}
	}
	// However a handler wrapped it, a refusal (a program start that found
	// no slot), an error after the deadline or a cancellation is reported as
	// such: the agent's next step depends on it.
	if ref, ok := admit.AsRefusal(a.err); ok {
		return nil, refused(ref)
	}
	if errors.Is(a.err, admit.ErrUndeclared) {
		return nil, Wrap(Internal, a.err, "%s: %v", inv.Def.Spec.Name, admit.ErrUndeclared)
	}
	if a.err != nil {
		switch ctx.Err() {
		case context.DeadlineExceeded:
			return nil, Wrap(Timeout, a.err, "%s did not finish within %s", inv.Def.Spec.Name, timeout).
				WithSuggestion("Call again with a shorter duration or narrower scope; the operator can raise [tools.%s] timeout.", inv.Def.Spec.Name)
		case context.Canceled:
			return nil, Wrap(Cancelled, a.err, "%s was cancelled", inv.Def.Spec.Name)
		}
	}
	return a.data, a.err
}
