package tool

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// ValidateEnvelope is exercised here; toolsets reuse it in their tests so
// every tool's real answers are checked against its declared outputSchema.
func TestEnvelopeValidatesAgainstOutputSchema(t *testing.T) {
	h := &memHandles{}
	r := &Runner{Handles: h.put, Limits: func(Spec) Limits { return Limits{Timeout: time.Second, OutputCap: 1024} }}
	d := echoDef()
	for _, args := range []string{`{"word":"hi"}`, `{"word":"fail"}`, `{"word":"warn"}`, `{"word":"abcdef","count":900}`, `{}`} {
		res := r.Run(context.Background(), Invocation{Def: d, Args: json.RawMessage(args)})
		if err := ValidateEnvelope(d, res.JSON); err != nil {
			t.Errorf("%s: %v\n%s", args, err, res.JSON)
		}
	}
}
