package catalog

import (
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
			if _, ok := d.InputSchema.Properties["dry_run"]; !ok && d.Spec.Name != "mcp_run_onboarding" { // apply: false is its dry run
				t.Errorf("%s changes the host but takes no dry_run", d.Spec.Name)
			}
		}
	}
	if _, err := tool.NewConfirmPolicy(config.DefaultConfirm(), defs); err != nil {
		t.Errorf("the default [confirm] does not fit the tools: %v", err)
	}
}
