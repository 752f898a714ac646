package tool

import (
	"context"
	"encoding/json"
)

// Preflight judges, before a call's handler runs, whether the host grants
// what the call needs (internal/privilege holds the table): it returns the
// tool error that refuses the call, or the warnings of a call that will
// run with less than it wants.
type Preflight func(ctx context.Context, args json.RawMessage) (warnings []string, err error)

// Guard makes every call of d pass p after its arguments are validated and
// before its handler runs, so that a refused call starts nothing. The
// registry sets it on each tool the privilege table names.
func (d *Def) Guard(p Preflight) { d.preflight = p }

// Guarded reports whether d has a preflight.
func (d *Def) Guarded() bool { return d.preflight != nil }

// checkPreflight runs d's preflight, if any, and hands its warnings to call.
func (d *Def) checkPreflight(ctx context.Context, call *Call, raw json.RawMessage) error {
	if d.preflight == nil {
		return nil
	}
	warnings, err := d.preflight(ctx, raw)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		call.Warn("%s", w)
	}
	return nil
}
