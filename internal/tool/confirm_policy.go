package tool

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/config"
)

// ConfirmPolicy is which calls need a person's yes ([confirm]): per tool,
// conditions on the facts of a call's preview, any one of which asks.
type ConfirmPolicy struct {
	rules        map[string][]config.Condition
	allowUnasked bool
	// AnswerTimeout is how long a person has to answer.
	AnswerTimeout time.Duration
}

// NewConfirmPolicy checks conf against the tools there are (every tool
// built, served or not: a rule for a tool left out of --toolsets is not a
// typo) and returns the policy. Each tool named must change the host and
// declare every fact its conditions test, of a kind the test fits.
func NewConfirmPolicy(conf config.ConfirmConf, defs []*Def) (*ConfirmPolicy, error) {
	rules, err := conf.Conditions()
	if err != nil {
		return nil, err
	}
	byName := map[string]*Def{}
	for _, d := range defs {
		byName[d.Spec.Name] = d
	}
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(rules)) {
		d, ok := byName[name]
		key := "confirm.tools." + name
		switch {
		case !ok:
			var planned []string
			for n, d := range byName {
				if d.Planned() {
					planned = append(planned, n)
				}
			}
			slices.Sort(planned)
			errs = append(errs, fmt.Errorf("%s: no tool is named %q; tools that can be confirmed: %s", key, name, strings.Join(planned, ", ")))
			continue
		case !d.Planned() && d.Spec.Kind == ReadOnly:
			errs = append(errs, fmt.Errorf("%s: %s changes nothing (it is %s), so there is nothing to confirm", key, name, d.Spec.Kind))
			continue
		case !d.Planned():
			errs = append(errs, fmt.Errorf("%s: %s works out no plan before it acts, so it cannot be confirmed", key, name))
			continue
		}
		for i, c := range rules[name] {
			if err := checkCondition(d.Spec.Facts, c); err != nil {
				errs = append(errs, fmt.Errorf("%s[%d] %q: %w", key, i, c, err))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &ConfirmPolicy{rules: rules, allowUnasked: conf.WithoutClientSupport == config.ConfirmAllow, AnswerTimeout: conf.AnswerTimeout.Duration}, nil
}

// checkCondition says why c cannot test facts, or nil.
func checkCondition(facts []Fact, c config.Condition) error {
	if c.Always() {
		return nil
	}
	i := slices.IndexFunc(facts, func(f Fact) bool { return f.Name == c.Fact })
	if i < 0 {
		var names []string
		for _, f := range facts {
			names = append(names, f.Name)
		}
		return fmt.Errorf("no fact %q; this tool's facts are %s (and \"always\")", c.Fact, strings.Join(names, ", "))
	}
	f := facts[i]
	switch {
	case c.Op == "" && f.Kind != FactBool:
		return fmt.Errorf("%s is %s, not true or false: write %s=VALUE", f.Name, f.Kind, f.Name)
	case c.Op == ">" && f.Kind != FactNumber:
		return fmt.Errorf("%s is %s, not a number", f.Name, f.Kind)
	case c.Op == "=" && f.Kind == FactBool:
		if _, err := strconv.ParseBool(c.Value); err != nil {
			return fmt.Errorf("%s is true or false, not %q", f.Name, c.Value)
		}
	case c.Op == "=" && f.Kind == FactNumber:
		if _, err := strconv.ParseInt(c.Value, 10, 64); err != nil {
			return fmt.Errorf("%s is a whole number, not %q", f.Name, c.Value)
		}
	}
	return nil
}

// match returns the first condition of tool's that holds for facts.
func (p *ConfirmPolicy) match(tool string, facts map[string]any) (string, bool) {
	if p == nil {
		return "", false
	}
	for _, c := range p.rules[tool] {
		if holds(c, facts[c.Fact]) {
			return c.String(), true
		}
	}
	return "", false
}

// holds evaluates c on v, a value of the kind NewConfirmPolicy checked c
// against.
func holds(c config.Condition, v any) bool {
	if c.Always() {
		return true
	}
	switch x := v.(type) {
	case bool:
		want := true
		if c.Op == "=" {
			want, _ = strconv.ParseBool(c.Value)
		}
		return x == want
	case int:
		return numberHolds(c, int64(x))
	case int64:
		return numberHolds(c, x)
	case string:
		return strings.EqualFold(x, c.Value)
	}
	return false
}

func numberHolds(c config.Condition, x int64) bool {
	n, _ := strconv.ParseInt(c.Value, 10, 64)
	if c.Op == ">" {
		return x > n
	}
	return x == n
}
