package tool

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// ValidateEnvelope checks an answer against the tool's outputSchema as
// served, as a strict client does, and against its full one (every field
// of data typed). Tests call it on real answers; the server does not, to
// keep validation off the hot path.
func ValidateEnvelope(d *Def, js []byte) error {
	var v any
	if err := json.Unmarshal(js, &v); err != nil {
		return fmt.Errorf("answer is not JSON: %w", err)
	}
	full, err := d.OutputSchema()
	if err != nil {
		return err
	}
	for _, s := range []*jsonschema.Schema{servedOutputSchema(), full} {
		rs, err := s.Resolve(nil)
		if err != nil {
			return fmt.Errorf("resolving the output schema of %s: %w", d.Spec.Name, err)
		}
		if err := rs.Validate(v); err != nil {
			return err
		}
	}
	return nil
}
