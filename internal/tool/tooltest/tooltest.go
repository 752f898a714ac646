// Package tooltest calls tools in tests the way the server does: through
// the framework's runner, with the answer checked against the tool's
// outputSchema before its data is decoded.
package tooltest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// Run calls d with args (anything that marshals to a JSON object, or a
// json.RawMessage) for the MCP session named session, and decodes the
// data of a successful answer into Out.
func Run[Out any](t testing.TB, ctx context.Context, d *tool.Def, session string, args any) (Out, *tool.Error) {
	t.Helper()
	raw, ok := args.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(args); err != nil {
			t.Fatal(err)
		}
	}
	res := (&tool.Runner{}).Run(ctx, tool.Invocation{Def: d, Args: raw, Session: session})
	if err := tool.ValidateEnvelope(d, res.JSON); err != nil {
		t.Fatalf("%s: answer does not match outputSchema: %v\n%s", d.Spec.Name, err, res.JSON)
	}
	var out Out
	if res.Err == nil {
		if err := json.Unmarshal(res.Envelope.Data, &out); err != nil {
			t.Fatalf("%s: data: %v", d.Spec.Name, err)
		}
	}
	return out, res.Err
}

// MustRun is Run for calls that must succeed.
func MustRun[Out any](t testing.TB, ctx context.Context, d *tool.Def, args any) Out {
	t.Helper()
	out, terr := Run[Out](t, ctx, d, "test", args)
	if terr != nil {
		t.Fatalf("%s(%v): %s: %s", d.Spec.Name, args, terr.Code, terr.Message)
	}
	return out
}
