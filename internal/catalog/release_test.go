package catalog

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// TestReleasedInputSchemas releases every tool's input schema, as a
// serving process does once its tools are registered, and checks that the
// schema read back at the first use is the one let go and still resolves,
// and that a call is refused in the same words.
func TestReleasedInputSchemas(t *testing.T) {
	kept, released := all(t), all(t)
	for i, ts := range released {
		for j, d := range ts.Tools {
			k := kept[i].Tools[j]
			want, err := json.Marshal(k.InputSchema)
			if err != nil {
				t.Fatal(err)
			}
			d.ReleaseInputSchema()
			if d.InputSchema != nil {
				t.Fatalf("%s: InputSchema kept", d.Spec.Name)
			}
			if err := d.Check(); err != nil {
				t.Fatalf("%s: %v", d.Spec.Name, err)
			}
			got, err := json.Marshal(d.InputSchema)
			if err != nil {
				t.Fatal(err)
			}
			if diff := testutil.JSONDiff(t, want, got); diff != "" {
				t.Errorf("%s: the schema read back differs (-kept +read back):\n%s", d.Spec.Name, diff)
			}
			args := json.RawMessage(`{"no_such_argument":1}`)
			a := (&tool.Runner{}).Run(context.Background(), tool.Invocation{Def: k, Args: args})
			b := (&tool.Runner{}).Run(context.Background(), tool.Invocation{Def: d, Args: args})
			if a.Err == nil || b.Err == nil || a.Err.Message != b.Err.Message || a.Err.Code != b.Err.Code {
				t.Errorf("%s: an unknown argument got %v kept, %v once released", d.Spec.Name, a.Err, b.Err)
			}
		}
	}
}
