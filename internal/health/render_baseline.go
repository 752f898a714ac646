package health

import (
	"fmt"
	"strings"
)

// textChanges is how many new suspicions, gone ones and changed rows the
// text report lists before "... more".
const textChanges = 5

// SaveBaselineHint is how an operator keeps the baseline hostmcp triage
// compares with.
const SaveBaselineHint = `hostmcp call perf_snapshot '{"save_as":"default"}' while the host is as usual`

// baseline says what changed since the baseline compared with: its age,
// the suspicions new and gone, and the rows whose status changed; or why
// there was none to compare with.
func (r *Report) baseline(p *printer) {
	c := r.Baseline
	if c == nil {
		if r.NoBaseline != "" {
			p.line("Baseline  %s", r.NoBaseline)
		}
		return
	}
	p.line("Baseline  %s", c.Summary)
	for _, n := range c.Notes {
		p.line("          note: %s", n)
	}
	for i, s := range c.New {
		if i == textChanges {
			p.line("New       ... %d more (hostmcp call perf_use_check '{\"compare_to\":%q}')", len(c.New)-i, c.Name)
			break
		}
		p.line("New       %s %s %s: %s %g %s %g (%s)", s.Severity, s.Resource, s.Dimension, s.Metric+subject(s.Subject), s.Value, s.Comparison, s.Threshold, s.Detail)
	}
	for i, g := range c.Gone {
		if i == textChanges {
			p.line("Gone      ... %d more", len(c.Gone)-i)
			break
		}
		now := "not measured now"
		if g.Now != nil {
			now = fmt.Sprintf("%g now", *g.Now)
		}
		p.line("Gone      %s %s %s: %s %g then, %s", g.SeverityThen, g.Resource, g.Dimension, g.Metric+subject(g.Subject), g.Then, now)
	}
	var changed []string
	for _, d := range c.Resources {
		if d.StatusThen != d.StatusNow {
			changed = append(changed, fmt.Sprintf("%s %s %s -> %s: %s %s -> %s", d.Resource, d.Dimension, d.StatusThen, d.StatusNow,
				d.Metric+subject(d.Subject), figure(d.Then), figure(d.Now)))
		}
	}
	for i, l := range changed {
		if i == textChanges {
			p.line("Changed   ... %d more", len(changed)-i)
			break
		}
		p.line("Changed   %s", l)
	}
}

func subject(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

// figure prints a value that one side may not have measured.
func figure(v *float64) string {
	if v == nil {
		return "none"
	}
	return fmt.Sprintf("%g", *v)
}

// sentence is the comparison for Summary.
func (c *Comparison) sentence() string {
	return " " + strings.ToUpper(c.Summary[:1]) + c.Summary[1:] + "."
}
