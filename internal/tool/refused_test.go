package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/admit"
)

func oneSlot() *admit.Control {
	return admit.New(&admit.Options{MaxCalls: 1, MaxProgramCalls: 1, QueueWait: time.Second,
		CallsPerSecond: 1000, Burst: 1000, MaxHTTPRequests: 1})
}

// blockingDef is a tool whose calls wait until release is closed, noting
// whether they ran under a program slot of c.
func blockingDef(programs bool, c *admit.Control, started chan<- bool, release <-chan struct{}) *Def {
	return New(Spec{Name: "block", Title: "Block", Description: "Wait.", Kind: ReadOnly, Programs: programs},
		func(ctx context.Context, _ *Call, _ struct{}) (struct{}, error) {
			started <- admit.Holds(ctx, c.Programs())
			<-release
			return struct{}{}, nil
		})
}

// refusedEnvelope checks a refused call's answer: the code, a message
// naming the setting behind the limit, a positive retry_after_ms in the
// JSON, and an envelope the output schema accepts.
func refusedEnvelope(t *testing.T, d *Def, res Result, code Code, setting string) {
	t.Helper()
	if res.Err == nil || res.Err.Code != code {
		t.Fatalf("want %s, got %s", code, res.JSON)
	}
	if !strings.Contains(res.Err.Message, setting) || !res.Err.Recoverable {
		t.Errorf("message %q does not name %s, or not recoverable", res.Err.Message, setting)
	}
	var env struct {
		Error struct {
			RetryAfterMS int64 `json:"retry_after_ms"`
		} `json:"error"`
	}
	if err := json.Unmarshal(res.JSON, &env); err != nil || env.Error.RetryAfterMS <= 0 {
		t.Errorf("retry_after_ms missing or not positive: %s", res.JSON)
	}
	if err := ValidateEnvelope(d, res.JSON); err != nil {
		t.Errorf("refused envelope does not validate: %v", err)
	}
}

func TestRunnerAnswersBusy(t *testing.T) {
	c := oneSlot()
	started, release := make(chan bool, 2), make(chan struct{})
	d := blockingDef(true, c, started, release)
	r := &Runner{Admission: c}
	first := make(chan Result, 1)
	go func() { first <- r.Run(context.Background(), Invocation{Def: d, Client: "a"}) }()
	if held := <-started; !held {
		t.Error("a call of a Programs tool ran without a program slot")
	}
	res := r.Run(context.Background(), Invocation{Def: d, Client: "b"})
	refusedEnvelope(t, d, res, Busy, "[load] max_program_calls")
	close(release)
	if res := <-first; res.Err != nil {
		t.Errorf("the admitted call: %s", res.JSON)
	}
	if c.Calls().InUse() != 0 || c.Programs().InUse() != 0 {
		t.Errorf("slots held after the calls: calls %d, programs %d", c.Calls().InUse(), c.Programs().InUse())
	}
}

func TestRunnerAnswersRateLimited(t *testing.T) {
	c := admit.New(&admit.Options{MaxCalls: 4, MaxProgramCalls: 1, QueueWait: time.Second, CallsPerSecond: 0.5, Burst: 2, MaxHTTPRequests: 1})
	r := &Runner{Admission: c}
	for i := range 2 {
		if res := r.Run(context.Background(), Invocation{Def: echoDef(), Client: "a", Args: json.RawMessage(`{"word":"x"}`)}); res.Err != nil {
			t.Fatalf("call %d of the burst: %s", i, res.JSON)
		}
	}
	res := r.Run(context.Background(), Invocation{Def: echoDef(), Client: "a", Args: json.RawMessage(`{"word":"x"}`)})
	refusedEnvelope(t, echoDef(), res, RateLimited, "[load] calls_per_second")
	if res.Err.RetryAfter <= 0 || res.Err.RetryAfter > 2*time.Second {
		t.Errorf("retry after %s, want the next token's time (up to 2s at 0.5 per second)", res.Err.RetryAfter)
	}
	if res := r.Run(context.Background(), Invocation{Def: echoDef(), Client: "b", Args: json.RawMessage(`{"word":"x"}`)}); res.Err != nil {
		t.Errorf("another client was limited by a's calls: %s", res.JSON)
	}
}

// A refusal met inside a handler (a program start that found no slot) is
// BUSY however the handler wrapped it.
func TestRunnerReportsARefusalFromInsideAHandler(t *testing.T) {
	d := New(Spec{Name: "spawn", Title: "Spawn", Description: "Start a program.", Kind: ReadOnly},
		func(context.Context, *Call, struct{}) (struct{}, error) {
			ref := &admit.Refusal{Reason: admit.Busy, Limit: "programs", Message: "the server is running its limit ([load] max_program_calls)", RetryAfter: 1500 * time.Microsecond}
			return struct{}{}, Wrap(ExecutionFailed, fmt.Errorf("rg: %w", ref), "starting rg")
		})
	res := (&Runner{}).Run(context.Background(), Invocation{Def: d})
	refusedEnvelope(t, d, res, Busy, "[load] max_program_calls")
	if res.Envelope.Error.RetryAfterMS != 2 {
		t.Errorf("retry_after_ms = %d for 1.5ms, want it rounded up to 2", res.Envelope.Error.RetryAfterMS)
	}
}

// A handler abandoned at its deadline still holds its slots until it
// returns: its work, and any child it started, is still in flight.
func TestAbandonedHandlerKeepsItsSlot(t *testing.T) {
	c := oneSlot()
	started, release := make(chan bool, 1), make(chan struct{})
	d := blockingDef(false, c, started, release)
	r := &Runner{Admission: c, Grace: 10 * time.Millisecond, Limits: func(Spec) Limits { return Limits{Timeout: 20 * time.Millisecond, OutputCap: 1024} }}
	res := r.Run(context.Background(), Invocation{Def: d, Client: "a"})
	<-started
	if res.Err == nil || res.Err.Code != Timeout {
		t.Fatalf("want TIMEOUT, got %s", res.JSON)
	}
	if c.Calls().InUse() != 1 {
		t.Errorf("the abandoned handler's slot was given back while it still runs")
	}
	close(release)
	deadline := time.Now().Add(10 * time.Second)
	for c.Calls().InUse() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the slot was not given back once the handler returned")
		}
		time.Sleep(time.Millisecond)
	}
}

// Programs started by a tool that did not declare them are a bug in the
// tool, reported as such however the handler wrapped it.
func TestRunnerReportsAnUndeclaredProgramAsInternal(t *testing.T) {
	d := New(Spec{Name: "trace", Title: "Trace", Description: "Attach.", Kind: ReadOnly},
		func(context.Context, *Call, struct{}) (struct{}, error) {
			return struct{}{}, Wrap(ExecutionFailed, fmt.Errorf("attaching: %w", admit.ErrUndeclared), "tracing failed")
		})
	res := (&Runner{}).Run(context.Background(), Invocation{Def: d})
	if res.Err == nil || res.Err.Code != Internal || !strings.Contains(res.Err.Message, "tool.Spec.Programs") {
		t.Errorf("want INTERNAL naming the declaration, got %s", res.JSON)
	}
}

// A call gives back its slots before it answers: the agent's next call,
// sent on the answer, must not find the server still busy with this one.
func TestSlotsFreeWhenTheCallAnswers(t *testing.T) {
	c := oneSlot()
	started, release := make(chan bool, 1), make(chan struct{})
	close(release)
	d := blockingDef(true, c, started, release)
	r := &Runner{Admission: c}
	for i := range 500 {
		if res := r.Run(context.Background(), Invocation{Def: d, Client: "a"}); res.Err != nil {
			t.Fatalf("call %d: %s", i, res.JSON)
		}
		<-started
		if c.Calls().InUse() != 0 || c.Programs().InUse() != 0 {
			t.Fatalf("call %d answered with its slots still held: calls %d, programs %d", i, c.Calls().InUse(), c.Programs().InUse())
		}
	}
}
