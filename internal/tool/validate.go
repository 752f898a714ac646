package tool

import (
	"encoding/json"
	"fmt"
)

// ValidateEnvelope checks an answer against the tool's outputSchema, as a
// strict client does. Tests call it on real answers; the server does not, to
// keep validation off the hot path.
func ValidateEnvelope(d *Def, js []byte) error {
	rs, err := d.OutputSchema.Resolve(nil)
	if err != nil {
		return fmt.Errorf("resolving the output schema of %s: %w", d.Spec.Name, err)
	}
	var v any
	if err := json.Unmarshal(js, &v); err != nil {
		return fmt.Errorf("answer is not JSON: %w", err)
	}
	return rs.Validate(v)
}
