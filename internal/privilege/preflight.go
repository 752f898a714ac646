package privilege

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Preflight judges calls against the Table with what the host grants now.
// It reads the host on every call that has something to judge: the
// settings (perf_event_paranoid) may change while the server runs.
type Preflight struct {
	host      *hostinfo.Host
	hasBinary func(string) bool
	rules     map[string][]Rule
}

// New builds the preflight over host; hasBinary says which programs are
// installed (the exec runner's Available), nil none.
func New(host *hostinfo.Host, hasBinary func(string) bool) *Preflight {
	if hasBinary == nil {
		hasBinary = func(string) bool { return false }
	}
	p := &Preflight{host: host, hasBinary: hasBinary, rules: map[string][]Rule{}}
	for _, r := range Table() {
		p.rules[r.Tool] = append(p.rules[r.Tool], r)
	}
	return p
}

// Guard puts the preflight in front of every tool the Table names, so that
// each of their calls is judged before its handler starts anything.
func (p *Preflight) Guard(sets []tool.Toolset) {
	for _, ts := range sets {
		for _, d := range ts.Tools {
			if _, ok := p.rules[d.Spec.Name]; ok {
				name := d.Spec.Name
				d.Guard(func(_ context.Context, args json.RawMessage) ([]string, error) { return p.Check(name, args) })
			}
		}
	}
}

// Check judges one call of the named tool with these arguments: a refusal
// is CAPABILITY_MISSING (the kernel lacks a feature) or PERMISSION_DENIED
// (the server lacks a privilege, or may not look into the target); a call
// that runs with less than it wants gets warnings.
func (p *Preflight) Check(name string, args json.RawMessage) (warnings []string, err error) {
	var rules []Rule
	for _, r := range p.rules[name] {
		if (r.Needs|r.Wants != 0 || r.Target != "") && r.Selects(args) && (r.Program == "" || p.hasBinary(r.Program)) {
			rules = append(rules, r)
		}
	}
	if len(rules) == 0 {
		return nil, nil
	}
	c, _ := p.host.Capabilities(p.hasBinary)
	for _, r := range rules {
		if missing := r.Needs.Missing(c); len(missing) > 0 {
			return nil, refusal(r, missing)
		}
		if pid, ok := intArg(args, r.Target); ok && pid > 0 {
			if m := p.target(c, r, pid); m != nil {
				return nil, refusal(r, []Missing{*m})
			}
		}
		for _, m := range r.Wants.Missing(c) {
			warnings = append(warnings, fmt.Sprintf("%s (%s takes %s; here %s). To have them: %s.", r.Degraded, m.What, m.Takes, m.Found, m.Fix))
		}
	}
	return warnings, nil
}

// refusal is the tool error for a rule whose needs are missing.
func refusal(r Rule, missing []Missing) *tool.Error {
	code := tool.PermissionDenied
	var said, fixes []string
	for _, m := range missing {
		if m.Feature {
			code = tool.CapabilityMissing
		}
		said = append(said, fmt.Sprintf("%s, which takes %s; here %s", m.What, m.Takes, m.Found))
		fixes = append(fixes, m.Fix)
	}
	e := tool.Errorf(code, "%s was not started: it needs %s.", useName(r), strings.Join(said, "; and "))
	var instead []string
	for _, a := range r.Instead {
		instead = append(instead, strings.TrimSpace(a.Tool+" "+a.Args)+" ("+a.Why+")")
	}
	s := ""
	if len(instead) > 0 {
		s = "Use " + strings.Join(instead, ", or ") + " instead, which need no privilege. "
	}
	return e.WithSuggestion("%sTo allow it: %s. perf_info lists which privileged tools can run here.", s, strings.Join(fixes, "; "))
}

// useName is the tool, and the use the rule covers.
func useName(r Rule) string {
	if r.Use == "" {
		return r.Tool
	}
	return r.Tool + " (" + r.Use + ")"
}

// Selects reports whether the rule covers a call with these arguments.
func (r Rule) Selects(args json.RawMessage) bool {
	when := r.When
	if when == "" {
		return true
	}
	if name, value, ok := strings.Cut(when, "="); ok {
		var got string
		return stringArg(args, name, &got) && got == value
	}
	name, absent := strings.CutPrefix(when, "!")
	n, given := intArg(args, name)
	given = given && n != 0
	return given != absent
}

// intArg reads a top-level integer argument; ok is false when it is absent
// or not a number (the schema has refused that before a preflight runs).
func intArg(args json.RawMessage, name string) (int, bool) {
	var m map[string]json.RawMessage
	if name == "" || json.Unmarshal(args, &m) != nil {
		return 0, false
	}
	var n int
	if v, ok := m[name]; !ok || json.Unmarshal(v, &n) != nil {
		return 0, false
	}
	return n, true
}

func stringArg(args json.RawMessage, name string, dst *string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		return false
	}
	v, ok := m[name]
	return ok && json.Unmarshal(v, dst) == nil
}
