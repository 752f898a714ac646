package tool

import (
	"strings"
	"testing"
)

// surelyFits must never say yes where the envelope would pass the cap: its
// fixed part bounds everything in an envelope but its strings.
func TestEnvelopeBound(t *testing.T) {
	for _, c := range []*Call{
		{},
		{Tool: "perf_info", version: "v1.2.3", host: "h"},
		{Tool: strings.Repeat("t", 64), version: "v0.0.0-20261126-abcdef\"-dirty", host: strings.Repeat("é", 32), warnings: []string{"a", "\"quoted\"\n", ""}},
	} {
		around := envelopeBytes(c.frame(c.Warnings()))
		strs := JSONStringLen(c.Tool) + JSONStringLen(c.version) + JSONStringLen(c.host)
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
