package tool

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/hostmcp/hostmcp/internal/config"
)

// A tool that changes the host is planned: every call first works out
// what it would do, changing nothing (its Preview), and its handler then
// passes Call.Confirm before it changes anything, or answers a dry run
// with Call.DryRun. The preview's one-line summary is what a person is
// asked ([confirm] in the configuration decides whether, from the
// preview's facts); its state is what the person saw, and the call goes
// ahead only while it is unchanged. The runner asks between attempts and
// runs the handler again from the start after a yes, so a confirmed call
// works its plan out afresh and does exactly what was shown, or asks again.

// FactKind is the type of a fact's values.
type FactKind int

const (
	// FactBool is true or false: "recursive".
	FactBool FactKind = iota + 1
	// FactNumber is a whole number: "files", "bytes".
	FactNumber
	// FactString is a word: "signal".
	FactString
)

func (k FactKind) String() string {
	switch k {
	case FactBool:
		return "true or false"
	case FactNumber:
		return "a number"
	case FactString:
		return "a word"
	}
	return fmt.Sprintf("FactKind(%d)", int(k))
}

// Fact declares one thing a planned tool's previews tell [confirm]
// conditions, with what it means for the operator who writes them.
type Fact struct {
	Name string
	Kind FactKind
	Doc  string
}

// Preview is what a call would do, worked out before anything changes.
type Preview struct {
	// Summary is what a person is asked, one line they can judge at a
	// glance: "Delete /srv/app/cache and everything in it: 1,234 files,
	// 56.0 MiB, newest changed 3 min ago". Input it quotes goes through Clip.
	Summary string
	// Facts are the values of every fact the tool's spec declares: bool,
	// int or int64, or string, as each fact's kind says.
	Facts map[string]any
	// State is a digest of what the call would affect (a tree's entries,
	// a file's identity and content, a process's start time): a person's
	// yes holds for this state only.
	State string
}

// Plan is what a dry run says of itself, in its answer: the one line a
// person would be asked, and whether the real call would ask.
type Plan struct {
	Summary           string `json:"summary" jsonschema:"what the call would do"`
	NeedsConfirmation bool   `json:"needs_confirmation" jsonschema:"the real call would first ask a person (the server's [confirm] configuration)"`
}

// Confirmation is what came of [confirm] for one call, as its record says.
type Confirmation string

const (
	// ConfirmNone: the call had nothing to confirm.
	ConfirmNone Confirmation = ""
	// ConfirmAccepted: a person accepted what the call then did.
	ConfirmAccepted Confirmation = "confirmed"
	// ConfirmDeclined: a person declined; nothing changed.
	ConfirmDeclined Confirmation = "declined"
	// ConfirmCancelled: the question was dismissed; nothing changed.
	ConfirmCancelled Confirmation = "cancelled"
	// ConfirmUnanswered: no answer came in time; nothing changed.
	ConfirmUnanswered Confirmation = "unanswered"
	// ConfirmRefused: the client could not ask a person, and
	// without_client_support refuses; nothing changed.
	ConfirmRefused Confirmation = "refused"
	// ConfirmUnconfirmed: the client could not ask a person, and
	// without_client_support allows: the call ran unconfirmed.
	ConfirmUnconfirmed Confirmation = "unconfirmed"
	// ConfirmDryRun: the call only said what it would do.
	ConfirmDryRun Confirmation = "dry_run"
	// ConfirmAsked: the question went to a client that asks and then
	// calls again (protocol 2026-07-28); nothing changed yet.
	ConfirmAsked Confirmation = "asked"
)

// gate is what a call knows of confirmation: the policy, how its client
// can ask, and what this attempt decided.
type gate struct {
	policy   *ConfirmPolicy // nil: nothing needs confirming
	asking   *Asking        // nil: the caller cannot ask a person
	accepted string         // the State a person said yes to, if any
	outcome  Confirmation
	passed   bool // the handler reached Confirm or DryRun
	because  string
}

// Confirm lets the call go ahead when [confirm] asks nothing of it, or a
// person has accepted exactly this preview. Otherwise it returns the
// error the handler must return at once, having changed nothing: the
// runner then asks (and calls the handler again on a yes), or refuses
// the call when its client cannot ask.
func (c *Call) Confirm(p Preview) error {
	g := &c.gate
	if err := c.checkFacts(p); err != nil {
		return err
	}
	g.passed = true
	cond, needed := g.policy.match(c.Tool, p.Facts)
	if !needed {
		return nil
	}
	g.because = cond
	if g.accepted != "" && g.accepted == p.State {
		g.outcome = ConfirmAccepted
		return nil
	}
	if !g.asking.can() {
		if g.policy.allowUnasked {
			g.outcome = ConfirmUnconfirmed
			c.Warn("%s ran without a person's confirmation: %s ([confirm] without_client_support = \"allow\")", c.Tool, g.asking.unable())
			return nil
		}
		g.outcome = ConfirmRefused
		return Errorf(ConfirmationRequired, "nothing was changed: %s needs a person's confirmation ([confirm] tools.%s has %q), and %s. It would: %s",
			c.Tool, c.Tool, cond, g.asking.unable(), p.Summary)
	}
	g.outcome = ConfirmAsked
	q := &Question{Tool: c.Tool, Summary: p.Summary, Because: cond, Changed: g.accepted != "", State: p.State}
	e := Errorf(ConfirmationRequired, "%s waits for a person's confirmation: %s", c.Tool, p.Summary)
	e.ask = q
	return e
}

// DryRun records that the call only worked out what it would do, and
// returns the plan its answer carries.
func (c *Call) DryRun(p Preview) (*Plan, error) {
	if err := c.checkFacts(p); err != nil {
		return nil, err
	}
	c.gate.passed, c.gate.outcome = true, ConfirmDryRun
	_, needed := c.gate.policy.match(c.Tool, p.Facts)
	return &Plan{Summary: p.Summary, NeedsConfirmation: needed}, nil
}

// checkFacts holds a preview to its tool's declared facts: a fact left
// out or of the wrong type would make a condition quietly never hold.
func (c *Call) checkFacts(p Preview) error {
	for _, f := range c.facts {
		v, ok := p.Facts[f.Name]
		if !ok || !f.Kind.holds(v) {
			return Errorf(Internal, "%s's preview gives fact %q as %v (%T), not %s; this is a bug", c.Tool, f.Name, v, v, f.Kind)
		}
	}
	for name := range p.Facts {
		if !slices.ContainsFunc(c.facts, func(f Fact) bool { return f.Name == name }) {
			return Errorf(Internal, "%s's preview gives fact %q, which its spec does not declare; this is a bug", c.Tool, name)
		}
	}
	if strings.TrimSpace(p.Summary) == "" || p.State == "" {
		return Errorf(Internal, "%s's preview has no summary or no state; this is a bug", c.Tool)
	}
	return nil
}

// holds reports whether v is a value of kind k.
func (k FactKind) holds(v any) bool {
	switch v.(type) {
	case bool:
		return k == FactBool
	case int, int64:
		return k == FactNumber
	case string:
		return k == FactString
	}
	return false
}

// Planned reports whether calls of d work out a preview first (Spec.Facts).
func (d *Def) Planned() bool { return d.Spec.Facts != nil }

// checkFactSpecs panics on a malformed Spec.Facts: a programming error,
// caught by the registry test that builds every toolset.
func checkFactSpecs(spec Spec) {
	if spec.Facts != nil && spec.Kind == ReadOnly {
		panic(fmt.Sprintf("tool %q: a read-only tool has nothing to confirm; it takes no Facts", spec.Name))
	}
	seen := map[string]bool{config.Always: true}
	for _, f := range spec.Facts {
		if !validName(f.Name) || seen[f.Name] || f.Kind < FactBool || f.Kind > FactString || f.Doc == "" {
			panic(fmt.Sprintf("tool %q: fact %+v needs a unique lower-case name other than %q, a kind and a doc", spec.Name, f, config.Always))
		}
		seen[f.Name] = true
	}
}

// StateOf digests what a call would affect into a Preview's State: each
// part as fmt prints it (%v), apart from the next. Tools with much to
// digest (a tree's entries) feed a hash of their own instead.
func StateOf(parts ...any) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%v\x00", p)
	}
	return hex.EncodeToString(h.Sum(nil))
}
