package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// releasedRulesDef is rulesDef with bounds and an enum of numbers, the
// refinements a round trip through JSON could lose.
func releasedRulesDef(release bool) *Def {
	d := rulesDef().WithEnum("count", 1, 2, 3).WithRange("pid", 1, 1<<22)
	if release {
		d.ReleaseInputSchema()
	}
	return d
}

// A tool whose input schema was released validates every call as before,
// with the same words: its schema is read back at the first call.
func TestReleasedInputSchemaValidatesAlike(t *testing.T) {
	cases := []string{
		`{"pid":1,"path":"a"}`, `{"pid":1,"root":"a","path":"b"}`,
		`{"pid":1,"root":"` + strings.Repeat("x", 101) + `"}`, `{"pid":1,"exact":"yes"}`,
		`{"group":"g","count":2}`, `{"group":"g","count":4}`, `{"group":"g","count":2.0}`,
		`{"pid":0}`, `{"pid":4194305}`, `{"pid":1,"nope":1}`, `{}`, `{"group":"g","labels":[1,null]}`,
		`{"group":"g","labels":"x"}`, `null`, `[]`,
	}
	for _, args := range cases {
		run := func(release bool) Result {
			return (&Runner{}).Run(context.Background(), Invocation{Def: releasedRulesDef(release), Args: json.RawMessage(args)})
		}
		kept, released := run(false), run(true)
		if diff := cmp.Diff(seen(kept.Err), seen(released.Err)); diff != "" {
			t.Errorf("%s: the error differs once released (-kept +released):\n%s", args, diff)
		}
		if kept.Err == nil && string(kept.Envelope.Data) != string(released.Envelope.Data) {
			t.Errorf("%s: got %s once released, %s kept", args, released.Envelope.Data, kept.Envelope.Data)
		}
	}
}

// The tree read back is the one released, as JSON, and it is back in
// InputSchema after the first call.
func TestReleasedInputSchemaComesBackWhole(t *testing.T) {
	kept := releasedRulesDef(false)
	want, err := json.Marshal(kept.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	d := releasedRulesDef(true)
	if d.InputSchema != nil {
		t.Fatal("InputSchema kept after ReleaseInputSchema")
	}
	if err := d.Check(); err != nil {
		t.Fatal(err)
	}
	if d.InputSchema == nil {
		t.Fatal("InputSchema not back after the schema's first use")
	}
	got, err := json.Marshal(d.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	if diff := testutil.JSONDiff(t, want, got); diff != "" {
		t.Errorf("the schema read back differs (-released +read back):\n%s", diff)
	}
	d.ReleaseInputSchema() // once resolved, the tree is the validator's: kept
	if d.InputSchema == nil {
		t.Error("ReleaseInputSchema let go of a resolved schema")
	}
}

// seen is what the agent is shown of err.
func seen(err *Error) []any {
	if err == nil {
		return nil
	}
	return []any{err.Code, err.Message, err.Suggestion, err.Recoverable, err.RetryAfter}
}
