package tool

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/admit"
)

// Asking is how the client of one call can put a question to a person.
// The transport the call came in on fills it in (internal/server).
type Asking struct {
	// Ask puts q to a person and waits for the answer: elicitation/create
	// on a session that can send it. Nil when the client cannot be asked
	// while the call waits.
	Ask func(ctx context.Context, q Question) (Answer, error)
	// Defer ends the call with its question instead (Result.Ask): a client
	// on protocol 2026-07-28 asks, then calls again carrying the answer.
	Defer bool
	// Answer is the answer such a call made again carries, checked by the
	// transport to be the server's own question about this very call; nil
	// on a first call.
	Answer *Answer
	// Unable says why no person can be asked, when neither Ask nor Defer
	// is set: "the client did not declare the elicitation capability".
	Unable string
}

func (a *Asking) can() bool { return a != nil && (a.Ask != nil || a.Defer) }

func (a *Asking) unable() string {
	if a == nil || a.Unable == "" {
		return "the call came through no MCP client that could ask one (hostmcp call, or a tool's own flow)"
	}
	return a.Unable
}

// Question is what a person is asked about one call.
type Question struct {
	Tool    string
	Summary string
	// Because is the [confirm] condition that asked.
	Because string
	// Changed says that what the call would affect changed since the
	// person was last asked about it.
	Changed bool
	// State is the preview's state: an answer holds for it alone.
	State string
}

// Message is the question as a person reads it: what would happen, first.
func (q Question) Message() string {
	var b strings.Builder
	if q.Changed {
		b.WriteString("This changed since you were asked. ")
	}
	b.WriteString(q.Summary)
	fmt.Fprintf(&b, "\n\nhostmcp asks before %s because its configuration says so ([confirm] tools.%s: %q). Accept to go ahead; decline and nothing changes.",
		q.Tool, q.Tool, q.Because)
	return b.String()
}

// The actions of an answer, in MCP's words (ElicitResult.action).
const (
	ActionAccept  = "accept"
	ActionDecline = "decline"
	ActionCancel  = "cancel"
)

// Answer is a person's answer to a Question.
type Answer struct {
	Action string
	// State and Summary are what the question was about, when the answer
	// comes with a call made again (2026-07-28).
	State, Summary string
}

// maxAsks is how many times one call asks a person when what it would
// affect keeps changing under the question.
const maxAsks = 3

// attempts runs the call, and when its handler stops at Call.Confirm asks
// a person and runs it again from the start on a yes, so that it works
// out afresh what it will do and goes ahead only if that is what was
// shown. It ends when the handler answers without asking, a person says
// no, or the question is to go to the client (ask, for Result.Ask).
func (r *Runner) attempts(ctx context.Context, inv Invocation, call *Call, lim Limits) (data any, ask *Question, err error) {
	if a := inv.Asking; a != nil && a.Answer != nil {
		if a.Answer.Action != ActionAccept {
			return nil, nil, call.declined(a.Answer.Action, a.Answer.Summary)
		}
		call.gate.accepted = a.Answer.State
	}
	for asks := 0; ; asks++ {
		data, err = r.attempt(ctx, inv, call, lim, asks > 0)
		q := askOf(err)
		if q == nil {
			return data, nil, err
		}
		if inv.Asking.Defer {
			return nil, q, nil
		}
		if asks == maxAsks {
			call.gate.outcome = ConfirmUnanswered
			return nil, nil, Errorf(Declined, "nothing was changed: what %s would affect changed each of the %d times a person was asked. Now it would: %s", call.Tool, maxAsks, q.Summary).
				WithSuggestion("Wait until what the call works on has settled (a file still being written, a process restarting), then call again.")
		}
		ans, err := r.ask(ctx, inv, call, q)
		if err != nil {
			return nil, nil, err
		}
		if ans.Action != ActionAccept {
			return nil, nil, call.declined(ans.Action, q.Summary)
		}
		call.nextAttempt(q.State)
	}
}

// attempt is one run of the handler, under the admission of load; again
// is a run after a person's yes, which the call's token already paid for.
func (r *Runner) attempt(ctx context.Context, inv Invocation, call *Call, lim Limits, again bool) (any, error) {
	var (
		actx    context.Context
		release func()
		err     error
	)
	if again {
		actx, release, err = r.Admission.AdmitAgain(ctx, inv.Def.Spec.Programs)
	} else {
		actx, release, err = r.Admission.Admit(ctx, inv.Client, inv.Def.Spec.Programs)
	}
	if err != nil {
		if ref, ok := admit.AsRefusal(err); ok {
			return nil, refused(ref)
		}
		return nil, err
	}
	data, err := r.invoke(actx, inv, call, lim.Timeout, release)
	if err == nil && inv.Def.Planned() && !call.gate.passed {
		return nil, Errorf(Internal, "%s answered without passing its confirmation check; this is a bug in hostmcp", call.Tool)
	}
	return data, err
}

// ask puts q to a person through the call's client, within [confirm]
// answer_timeout. The call holds no admission slot meanwhile: a person
// may take minutes.
func (r *Runner) ask(ctx context.Context, inv Invocation, call *Call, q *Question) (Answer, error) {
	wait := 5 * time.Minute
	if r.Confirm != nil && r.Confirm.AnswerTimeout > 0 {
		wait = r.Confirm.AnswerTimeout
	}
	actx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	ans, err := inv.Asking.Ask(actx, *q)
	switch {
	case err == nil:
		return ans, nil
	case ctx.Err() != nil:
		return Answer{}, Wrap(Cancelled, err, "%s was cancelled while a person was asked to confirm it; nothing was changed", call.Tool)
	case errors.Is(actx.Err(), context.DeadlineExceeded):
		call.gate.outcome = ConfirmUnanswered
		return Answer{}, Errorf(Declined, "nothing was changed: no one answered within %s whether %s may go ahead: %s", wait, call.Tool, q.Summary)
	}
	call.gate.outcome = ConfirmRefused
	return Answer{}, Wrap(ConfirmationRequired, err, "nothing was changed: %s needs a person's confirmation, and the client failed to ask (%s). It would: %s",
		call.Tool, Clip(err.Error()), q.Summary)
}

// declined is the error of a call a person said no to.
func (c *Call) declined(action, summary string) error {
	if action == ActionCancel {
		c.gate.outcome = ConfirmCancelled
		return Errorf(Declined, "nothing was changed: the question whether %s may go ahead was dismissed without an answer. It would have: %s", c.Tool, summary)
	}
	c.gate.outcome = ConfirmDeclined
	return Errorf(Declined, "nothing was changed: a person declined %s, which would have: %s", c.Tool, summary)
}

// askOf is the question an error from Call.Confirm carries, if any.
func askOf(err error) *Question {
	var e *Error
	if errors.As(err, &e) {
		return e.ask
	}
	return nil
}
