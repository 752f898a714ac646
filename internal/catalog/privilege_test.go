package catalog

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/privilege"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// TestPrivilegeTable keeps the privilege table and the registry in step:
// every tool that starts programs (perf, bpftrace, eBPF, rg...) declares
// its needs there, even none, so a new one cannot be served without a
// preflight; every tool the table names is served and guarded; each rule
// selects calls by arguments the tool has; and each tool it suggests
// instead takes the arguments given and needs no privilege itself.
func TestPrivilegeTable(t *testing.T) {
	defs := map[string]*tool.Def{}
	for _, ts := range all(t) {
		for _, d := range ts.Tools {
			defs[d.Spec.Name] = d
		}
	}
	rules := map[string][]privilege.Rule{}
	for _, r := range privilege.Table() {
		rules[r.Tool] = append(rules[r.Tool], r)
	}
	for name, d := range defs {
		if d.Spec.Programs && len(rules[name]) == 0 {
			t.Errorf("%s starts programs but the privilege table (internal/privilege) does not say what it needs", name)
		}
		if len(rules[name]) > 0 && !d.Guarded() {
			t.Errorf("%s is in the privilege table but served without its preflight", name)
		}
	}
	for _, r := range privilege.Table() {
		d, ok := defs[r.Tool]
		if !ok {
			t.Errorf("the privilege table names %s, which is not a tool", r.Tool)
			continue
		}
		if r.When != "" {
			arg, value, _ := strings.Cut(strings.TrimPrefix(r.When, "!"), "=")
			p, ok := d.InputSchema().Properties[arg]
			switch {
			case !ok:
				t.Errorf("%s: rule %q selects by an argument the tool does not have", r.Tool, r.When)
			case value != "" && len(p.Enum) > 0 && !contains(p.Enum, value):
				t.Errorf("%s: rule %q selects a value outside %v", r.Tool, r.When, p.Enum)
			case value == "" && p.Type != "integer":
				t.Errorf("%s: rule %q tests an argument that is not a number", r.Tool, r.When)
			}
		}
		if r.Target != "" {
			if p, ok := d.InputSchema().Properties[r.Target]; !ok || p.Type != "integer" {
				t.Errorf("%s: target %q is not an integer argument", r.Tool, r.Target)
			}
		}
		if r.Wants != 0 && r.Degraded == "" {
			t.Errorf("%s: wants %s without saying what a call does without it", r.Tool, r.Wants)
		}
		if (r.Needs != 0 || r.Target != "") && len(r.Instead) == 0 {
			t.Errorf("%s (%s) may be refused, and names no tool to use instead", r.Tool, r.Use)
		}
		for _, a := range r.Instead {
			checkInstead(t, defs, r, a)
		}
	}
}

// checkInstead checks that a suggested tool exists, takes the arguments
// suggested (N stands for a number) and needs nothing of the kernel with
// them.
func checkInstead(t *testing.T, defs map[string]*tool.Def, r privilege.Rule, a privilege.Alt) {
	t.Helper()
	d, ok := defs[a.Tool]
	if !ok {
		t.Errorf("%s: suggests %s, which is not a tool", r.Tool, a.Tool)
		return
	}
	args := json.RawMessage(strings.ReplaceAll(a.Args, "N", "1"))
	if a.Args == "" {
		args = json.RawMessage("{}")
	}
	var v any
	if err := json.Unmarshal(args, &v); err != nil {
		t.Errorf("%s: suggests %s %s, which is not JSON: %v", r.Tool, a.Tool, a.Args, err)
		return
	}
	schema, err := d.InputSchema().Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(v); err != nil {
		t.Errorf("%s: suggests %s %s, which its schema refuses: %v", r.Tool, a.Tool, a.Args, err)
	}
	for _, ar := range privilege.Table() {
		if ar.Tool == a.Tool && ar.Needs != 0 && ar.Selects(args) {
			t.Errorf("%s: suggests %s %s, which itself needs %s", r.Tool, a.Tool, a.Args, ar.Needs)
		}
	}
}

func contains(enum []any, v string) bool {
	for _, e := range enum {
		if e == v {
			return true
		}
	}
	return false
}
