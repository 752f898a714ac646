package config

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ConfirmConf says which calls a person must confirm before they change
// anything, and what happens where no person can be asked (issue 23). It
// is the operator's alone: no argument of a call can skip a confirmation,
// and no tool changes this.
type ConfirmConf struct {
	// WithoutClientSupport is what a call that needs confirming gets when
	// its client cannot ask a person (no elicitation capability, stateless
	// HTTP before protocol 2026-07-28, `hostmcp call`): ConfirmRefuse
	// answers CONFIRMATION_REQUIRED and changes nothing; ConfirmAllow runs
	// the call unconfirmed, with a warning, and records it as unconfirmed.
	WithoutClientSupport string `toml:"without_client_support"`
	// AnswerTimeout is how long a person has to answer; no answer in time
	// counts as a decline.
	AnswerTimeout Duration `toml:"answer_timeout"`
	// Tools lists, per tool, conditions on what a call would do (the facts
	// of its preview, which the server works out: never the agent's say);
	// a call of that tool needs confirming when any one holds. A tool
	// listed in the file replaces its default; [] never asks.
	Tools map[string][]string `toml:"tools"`
}

// The values of without_client_support.
const (
	ConfirmRefuse = "refuse"
	ConfirmAllow  = "allow"
)

// DefaultConfirm asks about what cannot be undone and is easy to get wrong
// at scale: deleting a tree, SIGKILL or a signal to another user's process,
// and a diff that touches more than five files.
func DefaultConfirm() ConfirmConf {
	return ConfirmConf{
		WithoutClientSupport: ConfirmRefuse,
		AnswerTimeout:        Duration{5 * time.Minute},
		Tools: map[string][]string{
			"fs_delete":     {"recursive"},
			"proc_kill":     {"signal=KILL", "other_user"},
			"fs_apply_diff": {"files>5"},
		},
	}
}

// Condition is one [confirm] condition: Always, a fact that is true
// (Op ""), a fact equal to Value (Op "="), or a number above Value
// (Op ">").
type Condition struct {
	Fact  string
	Op    string
	Value string
}

// Always is the condition that holds for every call of its tool.
const Always = "always"

// Always reports whether c holds for every call.
func (c Condition) Always() bool { return c.Fact == Always }

// String writes c as the configuration does.
func (c Condition) String() string { return c.Fact + c.Op + c.Value }

// ValidName reports whether s matches ^[a-z][a-z0-9_]{0,63}$: the name of a
// fact, and of a tool (tool.ValidName). It is checked by hand: the default
// [confirm] is validated at every start-up, and that counted repetition
// compiled to 63 nested copies of its class, a recursion that grew the main
// goroutine's stack to 128 KiB and mapped the runtime's tables of every
// frame on it (bench/RESULTS.md, "Idle memory: no regexp compiled at
// start-up").
func ValidName(s string) bool {
	if len(s) == 0 || len(s) > 64 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, c := range []byte(s) {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// validFactValue reports whether s matches ^[A-Za-z0-9_.:/+-]{1,64}$,
// checked by hand for the reason ValidName is.
func validFactValue(s string) bool { return alnumOr(s, 64, "_.:/+-") }

// alnumOr reports whether s is 1 to max bytes, each an ASCII letter, a
// digit or one of extra: the shape of the [confirm] and [fleet] values
// checked by hand, so that no counted regexp is compiled at start-up.
func alnumOr(s string, max int, extra string) bool {
	if len(s) == 0 || len(s) > max {
		return false
	}
	for _, c := range []byte(s) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(extra, c) >= 0) {
			return false
		}
	}
	return true
}

// ParseCondition reads a condition: "always", "NAME", "NAME=VALUE" or
// "NAME>N" with N a whole number.
func ParseCondition(s string) (Condition, error) {
	want := `want "always", a fact ("recursive"), "fact=value" ("signal=KILL") or "fact>number" ("files>5")`
	i := strings.IndexAny(s, "=>")
	if i < 0 {
		if !ValidName(s) {
			return Condition{}, fmt.Errorf("%q is not a condition; %s", s, want)
		}
		return Condition{Fact: s}, nil
	}
	c := Condition{Fact: s[:i], Op: s[i : i+1], Value: s[i+1:]}
	switch {
	case !ValidName(c.Fact) || c.Fact == Always:
		return Condition{}, fmt.Errorf("%q: %q is not a fact name (lower case letters, digits, _); %s", s, c.Fact, want)
	case !validFactValue(c.Value):
		return Condition{}, fmt.Errorf("%q: the value %q must be 1 to 64 letters, digits or _.:/+-", s, c.Value)
	case c.Op == ">":
		if _, err := strconv.ParseInt(c.Value, 10, 64); err != nil {
			return Condition{}, fmt.Errorf("%q: > takes a whole number, not %q", s, c.Value)
		}
	}
	return c, nil
}

// maxConditions bounds one tool's conditions: a policy, not a program.
const maxConditions = 16

// Conditions parses the conditions of every tool in Tools. Validate has
// checked them, so an error here is a bug of the caller's.
func (c *ConfirmConf) Conditions() (map[string][]Condition, error) {
	out := make(map[string][]Condition, len(c.Tools))
	for _, name := range slices.Sorted(maps.Keys(c.Tools)) {
		conds := []Condition{}
		for i, s := range c.Tools[name] {
			cond, err := ParseCondition(s)
			if err != nil {
				return nil, fmt.Errorf("confirm.tools.%s[%d] %w", name, i, err)
			}
			conds = append(conds, cond)
		}
		out[name] = conds
	}
	return out, nil
}

func (c *Config) validateConfirm() []error {
	var errs []error
	k := c.Confirm
	if k.WithoutClientSupport != ConfirmRefuse && k.WithoutClientSupport != ConfirmAllow {
		errs = append(errs, fmt.Errorf("confirm.without_client_support %q: want %q or %q", k.WithoutClientSupport, ConfirmRefuse, ConfirmAllow))
	}
	if d := k.AnswerTimeout.Duration; d < 10*time.Second || d > time.Hour {
		errs = append(errs, fmt.Errorf("confirm.answer_timeout %s: must be between 10s and 1h", d))
	}
	for _, name := range slices.Sorted(maps.Keys(k.Tools)) {
		conds := k.Tools[name]
		if len(conds) > maxConditions {
			errs = append(errs, fmt.Errorf("confirm.tools.%s: %d conditions; at most %d", name, len(conds), maxConditions))
		}
		for i, s := range conds {
			if _, err := ParseCondition(s); err != nil {
				errs = append(errs, fmt.Errorf("confirm.tools.%s[%d] %w", name, i, err))
			}
		}
	}
	return errs
}
