package tool

import (
	"strings"
	"testing"
)

// surelyFits must never say yes where the envelope would pass the cap: its
// fixed part bounds everything in an envelope but its warnings.
func TestEnvelopeBound(t *testing.T) {
	for _, c := range []*Call{
		{},
		{Tool: "perf_info", warnings: []string{"a"}},
		{Tool: strings.Repeat("t", 64), warnings: []string{"a", "\"quoted\"\n", "", strings.Repeat("é", 32)}},
	} {
		around := envelopeBytes(c.frame(c.Warnings()))
		strs := 0
		for _, w := range c.Warnings() {
			strs += JSONStringLen(w) + 1
		}
		if around > envelopeFixed+strs {
			t.Errorf("%+v: the envelope takes %d bytes around data, over the bound %d", c, around, envelopeFixed+strs)
		}
		for n := range 70000 {
			if c.surelyFits(n) && n > c.DataBudget() {
				t.Fatalf("%+v: surelyFits(%d) but the budget is %d", c, n, c.DataBudget())
			}
		}
	}
}
