package catalog

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// notPlanned are the tools that change something yet take no dry run and
// cannot be named in [confirm]: bpftrace_stop only ends a trace the agent
// started, which leaves nothing to undo.
var notPlanned = map[string]bool{"bpftrace_stop": true}

// Every tool that changes the host works out a plan first (a dry run, and
// what [confirm] can ask about), and the default [confirm] names only such
// tools with facts they declare, so the server starts with it.
func TestEveryChangeCanBeConfirmed(t *testing.T) {
	var defs []*tool.Def
	for _, ts := range all(t) {
		for _, d := range ts.Tools {
			defs = append(defs, d)
			if d.Spec.Kind == tool.ReadOnly || notPlanned[d.Spec.Name] {
				continue
			}
			if !d.Planned() {
				t.Errorf("%s changes the host (%s) but declares no confirmation facts", d.Spec.Name, d.Spec.Kind)
			}
			if _, ok := d.InputSchema().Properties["dry_run"]; !ok && d.Spec.Name != "mcp_run_onboarding" { // apply: false is its dry run
				t.Errorf("%s changes the host but takes no dry_run", d.Spec.Name)
			}
		}
	}
	if _, err := tool.NewConfirmPolicy(config.DefaultConfirm(), defs); err != nil {
		t.Errorf("the default [confirm] does not fit the tools: %v", err)
	}
}

// The README's table of facts ([confirm] conditions) lists every planned
// tool with each fact it declares, so an operator writes conditions from
// the table that hold.
func TestReadmeListsConfirmationFacts(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| (.*) \\|$").FindAllStringSubmatch(string(b), -1) {
		rows[m[1]] = m[2]
	}
	for _, ts := range all(t) {
		for _, d := range ts.Tools {
			if !d.Planned() {
				continue
			}
			row, ok := rows[d.Spec.Name]
			if !ok {
				t.Errorf("README: no row of facts for %s", d.Spec.Name)
				continue
			}
			for _, f := range d.Spec.Facts {
				if !strings.Contains(row, "`"+f.Name+"`") {
					t.Errorf("README: %s's row %q lacks fact %s", d.Spec.Name, row, f.Name)
				}
			}
		}
	}
}
