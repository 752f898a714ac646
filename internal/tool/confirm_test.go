package tool

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/admit"
	"github.com/hostmcp/hostmcp/internal/config"
)

// shelf is what the fake planned tool "clear" works on: items it removes,
// which a test may change under a question, as another program would.
type shelf struct {
	mu      sync.Mutex
	items   int
	cleared atomic.Int32 // how many times the tool changed the shelf
	planned atomic.Int32 // how many previews it worked out
}

func (s *shelf) set(n int) {
	s.mu.Lock()
	s.items = n
	s.mu.Unlock()
}

type clearIn struct {
	Force  bool `json:"force,omitempty"`
	DryRun bool `json:"dry_run,omitempty"`
	// Skip makes the handler change the shelf without passing the gate,
	// as a buggy tool would.
	Skip bool `json:"skip,omitempty"`
	// BadFact makes the preview give a fact of the wrong type.
	BadFact bool `json:"bad_fact,omitempty"`
}

type clearOut struct {
	Removed int   `json:"removed"`
	Plan    *Plan `json:"plan,omitempty"`
}

var clearFacts = []Fact{
	{Name: "items", Kind: FactNumber, Doc: "items removed"},
	{Name: "force", Kind: FactBool, Doc: "force was given"},
	{Name: "shelf", Kind: FactString, Doc: "the shelf's name"},
}

func clearDef(s *shelf) *Def {
	return New(Spec{Name: "clear", Title: "Clear", Description: "Clear the shelf.", Kind: Destructive, Facts: clearFacts},
		func(_ context.Context, c *Call, in clearIn) (clearOut, error) {
			s.mu.Lock()
			n := s.items
			s.mu.Unlock()
			s.planned.Add(1)
			p := Preview{
				Summary: "Remove " + strings.Repeat("*", n) + " from the top shelf",
				Facts:   map[string]any{"items": n, "force": in.Force, "shelf": "top"},
				State:   StateOf(n),
			}
			if in.BadFact {
				p.Facts["items"] = "many"
			}
			if in.DryRun {
				plan, err := c.DryRun(p)
				return clearOut{Plan: plan}, err
			}
			if !in.Skip {
				if err := c.Confirm(p); err != nil {
					return clearOut{}, err
				}
			}
			s.cleared.Add(1)
			s.set(0)
			return clearOut{Removed: n}, nil
		})
}

func policy(t *testing.T, allow bool, conds ...string) *ConfirmPolicy {
	t.Helper()
	conf := config.DefaultConfirm()
	conf.Tools = map[string][]string{"clear": conds}
	if allow {
		conf.WithoutClientSupport = config.ConfirmAllow
	}
	p, err := NewConfirmPolicy(conf, []*Def{clearDef(&shelf{})})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// asker answers questions as a person would, recording them.
type asker struct {
	mu        sync.Mutex
	questions []Question
	answer    func(n int, q Question) (Answer, error)
}

func (a *asker) ask(_ context.Context, q Question) (Answer, error) {
	a.mu.Lock()
	a.questions = append(a.questions, q)
	n := len(a.questions)
	a.mu.Unlock()
	return a.answer(n, q)
}

func accept(int, Question) (Answer, error)  { return Answer{Action: ActionAccept}, nil }
func decline(int, Question) (Answer, error) { return Answer{Action: ActionDecline}, nil }

func runClear(t *testing.T, r *Runner, s *shelf, args string, asking *Asking) Result {
	t.Helper()
	return r.Run(context.Background(), Invocation{Def: clearDef(s), Args: json.RawMessage(args), Asking: asking})
}

func code(res Result) Code {
	if res.Err == nil {
		return ""
	}
	return res.Err.Code
}

func TestConfirmWithAPersonAtTheClient(t *testing.T) {
	tests := []struct {
		name      string
		answer    func(int, Question) (Answer, error)
		wantCode  Code
		wantState Confirmation
		cleared   int32
		asked     int
	}{
		{"accept", accept, "", ConfirmAccepted, 1, 1},
		{"decline", decline, Declined, ConfirmDeclined, 0, 1},
		{"cancel", func(int, Question) (Answer, error) { return Answer{Action: ActionCancel}, nil }, Declined, ConfirmCancelled, 0, 1},
		{"client fails", func(int, Question) (Answer, error) { return Answer{}, context.Canceled }, ConfirmationRequired, ConfirmRefused, 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &shelf{items: 3}
			a := &asker{answer: tc.answer}
			r := &Runner{Confirm: policy(t, false, "items>2")}
			res := runClear(t, r, s, `{}`, &Asking{Ask: a.ask})
			if code(res) != tc.wantCode || res.Confirmation != tc.wantState || s.cleared.Load() != tc.cleared || len(a.questions) != tc.asked {
				t.Fatalf("got code %q, confirmation %q, cleared %d times, asked %d times; want %q, %q, %d, %d\n%s",
					code(res), res.Confirmation, s.cleared.Load(), len(a.questions), tc.wantCode, tc.wantState, tc.cleared, tc.asked, res.JSON)
			}
			q := a.questions[0]
			if q.Tool != "clear" || q.Because != "items>2" || q.Changed || !strings.HasPrefix(q.Message(), "Remove *** from the top shelf") ||
				!strings.Contains(q.Message(), `[confirm] tools.clear: "items>2"`) {
				t.Errorf("question %+v, message %q", q, q.Message())
			}
			if res.Err != nil && (!strings.Contains(res.Err.Message, "Remove ***") || res.Err.Suggestion == "" || !strings.Contains(res.Err.Message, "nothing was changed")) {
				t.Errorf("error %+v: want the summary, that nothing changed, and a suggestion", res.Err)
			}
		})
	}
}

// A call that no condition matches runs without a question, and one that
// needs a person's yes goes ahead only for the state that was shown: when
// what it would affect changes before the answer, it asks again.
func TestConfirmAsksAgainWhenTheStateChanged(t *testing.T) {
	s := &shelf{items: 3}
	a := &asker{answer: func(n int, q Question) (Answer, error) {
		if n == 1 {
			s.set(5) // another program adds to the shelf while the person reads
		}
		return Answer{Action: ActionAccept}, nil
	}}
	r := &Runner{Confirm: policy(t, false, "items>2")}
	res := runClear(t, r, s, `{}`, &Asking{Ask: a.ask})
	if res.Err != nil || res.Confirmation != ConfirmAccepted || s.cleared.Load() != 1 {
		t.Fatalf("got %s, confirmation %q, cleared %d", res.JSON, res.Confirmation, s.cleared.Load())
	}
	if len(a.questions) != 2 || !a.questions[1].Changed || !strings.Contains(a.questions[1].Summary, "*****") ||
		!strings.HasPrefix(a.questions[1].Message(), "This changed since you were asked. Remove *****") {
		t.Fatalf("questions: %+v", a.questions)
	}
	var out clearOut
	if err := json.Unmarshal(res.Envelope.Data, &out); err != nil || out.Removed != 5 {
		t.Errorf("removed %d (%v), want the 5 the second question showed", out.Removed, err)
	}

	s.set(2) // no condition holds: no question
	res = runClear(t, r, s, `{}`, &Asking{Ask: a.ask})
	if res.Err != nil || res.Confirmation != ConfirmNone || len(a.questions) != 2 {
		t.Errorf("a call no condition matches: %s, confirmation %q, %d questions", res.JSON, res.Confirmation, len(a.questions))
	}
}

func TestConfirmGivesUpOnAStateThatKeepsChanging(t *testing.T) {
	s := &shelf{items: 3}
	a := &asker{answer: func(n int, q Question) (Answer, error) {
		s.set(3 + n)
		return Answer{Action: ActionAccept}, nil
	}}
	r := &Runner{Confirm: policy(t, false, "always")}
	res := runClear(t, r, s, `{}`, &Asking{Ask: a.ask})
	if code(res) != Declined || res.Confirmation != ConfirmUnanswered || s.cleared.Load() != 0 || len(a.questions) != maxAsks {
		t.Fatalf("got %s, confirmation %q, cleared %d, %d questions", res.JSON, res.Confirmation, s.cleared.Load(), len(a.questions))
	}
}

func TestConfirmUnansweredInTime(t *testing.T) {
	s := &shelf{items: 3}
	r := &Runner{Confirm: policy(t, false, "always")}
	r.Confirm.AnswerTimeout = 20 * time.Millisecond
	wait := func(ctx context.Context, _ Question) (Answer, error) {
		<-ctx.Done()
		return Answer{}, ctx.Err()
	}
	res := runClear(t, r, s, `{}`, &Asking{Ask: wait})
	if code(res) != Declined || res.Confirmation != ConfirmUnanswered || s.cleared.Load() != 0 || !strings.Contains(res.Err.Message, "no one answered within 20ms") {
		t.Fatalf("got %s, confirmation %q", res.JSON, res.Confirmation)
	}
}

// A client that cannot ask gets CONFIRMATION_REQUIRED, saying why and what
// the call would have done, unless the operator allows such calls: they
// run then, with a warning, recorded as unconfirmed.
func TestConfirmWithoutClientSupport(t *testing.T) {
	for _, asking := range []*Asking{nil, {Unable: "the client did not declare the elicitation capability"}} {
		s := &shelf{items: 3}
		res := runClear(t, &Runner{Confirm: policy(t, false, "always")}, s, `{}`, asking)
		if code(res) != ConfirmationRequired || res.Confirmation != ConfirmRefused || s.cleared.Load() != 0 {
			t.Fatalf("refuse: %s, confirmation %q", res.JSON, res.Confirmation)
		}
		if msg := res.Err.Message; !strings.Contains(msg, asking.unable()) || !strings.Contains(msg, "Remove ***") || !strings.Contains(msg, `[confirm] tools.clear has "always"`) {
			t.Errorf("message %q: want why, the condition and the summary", msg)
		}
		res = runClear(t, &Runner{Confirm: policy(t, true, "always")}, s, `{}`, asking)
		if res.Err != nil || res.Confirmation != ConfirmUnconfirmed || s.cleared.Load() != 1 ||
			len(res.Envelope.Warnings) != 1 || !strings.Contains(res.Envelope.Warnings[0], "without a person's confirmation") {
			t.Errorf("allow: %s, confirmation %q", res.JSON, res.Confirmation)
		}
	}
}

// On protocol 2026-07-28 the question goes back in the result and the
// client calls again with the answer: an accept for the state shown runs
// the call, one for a stale state asks again, a decline runs nothing.
func TestConfirmDeferredToTheClient(t *testing.T) {
	s := &shelf{items: 3}
	r := &Runner{Confirm: policy(t, false, "always")}
	res := runClear(t, r, s, `{}`, &Asking{Defer: true})
	if res.Ask == nil || res.Confirmation != ConfirmAsked || res.JSON != nil || s.cleared.Load() != 0 || res.Ask.State != StateOf(3) {
		t.Fatalf("first call: %+v", res)
	}
	stale := *res.Ask
	s.set(4)
	res = runClear(t, r, s, `{}`, &Asking{Defer: true, Answer: &Answer{Action: ActionAccept, State: stale.State, Summary: stale.Summary}})
	if res.Ask == nil || !res.Ask.Changed || s.cleared.Load() != 0 {
		t.Fatalf("an accept of a stale state: %+v", res)
	}
	planned := s.planned.Load()
	res = runClear(t, r, s, `{}`, &Asking{Defer: true, Answer: &Answer{Action: ActionDecline, State: res.Ask.State, Summary: res.Ask.Summary}})
	if code(res) != Declined || res.Confirmation != ConfirmDeclined || s.planned.Load() != planned || !strings.Contains(res.Err.Message, "Remove ****") {
		t.Fatalf("a decline: %s, confirmation %q, planned again: %v", res.JSON, res.Confirmation, s.planned.Load() != planned)
	}
	res = runClear(t, r, s, `{}`, &Asking{Defer: true, Answer: &Answer{Action: ActionAccept, State: StateOf(4)}})
	if res.Err != nil || res.Confirmation != ConfirmAccepted || s.cleared.Load() != 1 {
		t.Fatalf("an accept: %s, confirmation %q", res.JSON, res.Confirmation)
	}
}

// A dry run never asks and never changes anything; it says what the real
// call would do and whether it would ask.
func TestConfirmDryRun(t *testing.T) {
	s := &shelf{items: 3}
	a := &asker{answer: accept}
	for _, tc := range []struct {
		conds []string
		needs bool
	}{{[]string{"items>2"}, true}, {[]string{"items>3", "force"}, false}, {[]string{"force=false"}, true}} {
		res := runClear(t, &Runner{Confirm: policy(t, false, tc.conds...)}, s, `{"dry_run":true}`, &Asking{Ask: a.ask})
		var out clearOut
		if err := json.Unmarshal(res.Envelope.Data, &out); err != nil || res.Confirmation != ConfirmDryRun || out.Plan == nil {
			t.Fatalf("%v: %s, confirmation %q", tc.conds, res.JSON, res.Confirmation)
		}
		if out.Plan.Summary != "Remove *** from the top shelf" || out.Plan.NeedsConfirmation != tc.needs {
			t.Errorf("%v: plan %+v, want needs_confirmation %v", tc.conds, out.Plan, tc.needs)
		}
	}
	if s.cleared.Load() != 0 || len(a.questions) != 0 {
		t.Errorf("a dry run changed the shelf (%d) or asked (%d)", s.cleared.Load(), len(a.questions))
	}
}

// A planned tool that changes the host without passing its gate, or whose
// preview lies about a fact's type, is a bug the call reports.
func TestConfirmCatchesToolBugs(t *testing.T) {
	s := &shelf{items: 3}
	r := &Runner{Confirm: policy(t, false, "items>100")}
	if res := runClear(t, r, s, `{"skip":true}`, nil); code(res) != Internal || !strings.Contains(res.Err.Message, "without passing its confirmation check") {
		t.Errorf("skipping the gate: %s", res.JSON)
	}
	if res := runClear(t, r, s, `{"bad_fact":true}`, nil); code(res) != Internal || !strings.Contains(res.Err.Message, `fact "items"`) {
		t.Errorf("a fact of the wrong type: %s", res.JSON)
	}
}

// While a person thinks, the call holds no slot: with room for one call
// at a time, another call runs meanwhile.
func TestConfirmWaitsWithoutASlot(t *testing.T) {
	ctrl := admit.New(&admit.Options{MaxCalls: 1, QueueWait: 50 * time.Millisecond, CallsPerSecond: 1000, Burst: 1000, MaxProgramCalls: 1})
	r := &Runner{Confirm: policy(t, false, "always"), Admission: ctrl}
	other := make(chan Result, 1)
	a := &asker{answer: func(int, Question) (Answer, error) {
		other <- r.Run(context.Background(), Invocation{Def: echoDef(), Args: json.RawMessage(`{"word":"hi"}`)})
		return Answer{Action: ActionAccept}, nil
	}}
	s := &shelf{items: 1}
	if res := runClear(t, r, s, `{}`, &Asking{Ask: a.ask}); res.Err != nil || s.cleared.Load() != 1 {
		t.Fatalf("clear: %s", res.JSON)
	}
	if res := <-other; res.Err != nil {
		t.Errorf("a call while a person was asked: %s", res.JSON)
	}
}

func TestNewConfirmPolicyChecksToolsAndFacts(t *testing.T) {
	read := New(Spec{Name: "look", Title: "Look", Description: "Look.", Kind: ReadOnly}, func(context.Context, *Call, clearIn) (clearOut, error) { return clearOut{}, nil })
	defs := []*Def{clearDef(&shelf{}), read}
	conf := config.DefaultConfirm()
	conf.Tools = map[string][]string{
		"clear": {"always", "items>1", "items=3", "force", "force=false", "shelf=top", "shelf", "itms", "force>1", "items=many", "force=maybe"},
		"look":  {"always"},
		"clr":   {"always"},
	}
	_, err := NewConfirmPolicy(conf, defs)
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{
		`confirm.tools.clear[6] "shelf": shelf is a word, not true or false: write shelf=VALUE`,
		`confirm.tools.clear[7] "itms": no fact "itms"; this tool's facts are items, force, shelf (and "always")`,
		`confirm.tools.clear[8] "force>1": force is true or false, not a number`,
		`confirm.tools.clear[9] "items=many": items is a whole number, not "many"`,
		`confirm.tools.clear[10] "force=maybe": force is true or false, not "maybe"`,
		`confirm.tools.look: look changes nothing (it is read-only), so there is nothing to confirm`,
		`confirm.tools.clr: no tool is named "clr"; tools that can be confirmed: clear`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if strings.Count(err.Error(), "confirm.tools.clear[") != 5 {
		t.Errorf("the valid conditions were refused too:\n%v", err)
	}
}

func TestConfirmConditions(t *testing.T) {
	facts := map[string]any{"items": int64(3), "force": false, "shelf": "Top"}
	for cond, want := range map[string]bool{
		"always": true, "items>2": true, "items>3": false, "items=3": true, "force": false, "force=false": true,
		"shelf=top": true, "shelf=bottom": false,
	} {
		c, err := config.ParseCondition(cond)
		if err != nil {
			t.Fatal(err)
		}
		if got := holds(c, facts[c.Fact]); got != want {
			t.Errorf("%s on %v = %v, want %v", cond, facts, got, want)
		}
	}
}

// A call spends one token of its client's rate however often it is run
// again after a person's yes: with a burst of one and no refill to speak
// of, the yes still goes through instead of ending RATE_LIMITED, which a
// client retrying would turn into the person being asked again and again.
func TestConfirmSpendsOneTokenPerCall(t *testing.T) {
	ctrl := admit.New(&admit.Options{MaxCalls: 1, QueueWait: 50 * time.Millisecond, CallsPerSecond: 0.01, Burst: 1, MaxProgramCalls: 1})
	r := &Runner{Confirm: policy(t, false, "always"), Admission: ctrl}
	a := &asker{answer: accept}
	s := &shelf{items: 1}
	res := r.Run(context.Background(), Invocation{Def: clearDef(s), Args: json.RawMessage(`{}`), Client: "a", Asking: &Asking{Ask: a.ask}})
	if res.Err != nil || s.cleared.Load() != 1 || len(a.questions) != 1 {
		t.Fatalf("clear accepted (asked %d times): %s", len(a.questions), res.JSON)
	}
	res = r.Run(context.Background(), Invocation{Def: echoDef(), Args: json.RawMessage(`{"word":"hi"}`), Client: "a"})
	if res.Err == nil || res.Err.Code != RateLimited {
		t.Errorf("the next call of the client, its token spent: %s, want RATE_LIMITED", res.JSON)
	}
}
