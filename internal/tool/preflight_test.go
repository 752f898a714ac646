package tool

import (
	"context"
	"encoding/json"
	"testing"
)

// A guarded tool's preflight runs after its arguments are validated and
// before its handler: a refusal answers without the handler running, and
// warnings reach the envelope of a call that runs.
func TestGuard(t *testing.T) {
	ran := 0
	d := New(Spec{Name: "guarded", Title: "Guarded", Description: "A tool behind a preflight.", Kind: ReadOnly},
		func(ctx context.Context, c *Call, in echoIn) (echoOut, error) {
			ran++
			return echoOut{Words: []string{in.Word}}, nil
		})
	var seen []string
	d.Guard(func(_ context.Context, args json.RawMessage) ([]string, error) {
		seen = append(seen, string(args))
		var in echoIn
		_ = json.Unmarshal(args, &in)
		if in.Word == "root" {
			return nil, Errorf(PermissionDenied, "needs root")
		}
		return []string{"less than wanted"}, nil
	})
	if !d.Guarded() {
		t.Fatal("Guarded() is false after Guard")
	}
	r := &Runner{}
	run := func(args string) Result {
		return r.Run(context.Background(), Invocation{Def: d, Args: json.RawMessage(args)})
	}

	if res := run(`{"word":"root"}`); res.Err == nil || res.Err.Code != PermissionDenied || ran != 0 {
		t.Fatalf("refused call: %s (handler ran %d times)", res.JSON, ran)
	}
	if res := run(`{"count":"x"}`); res.Err == nil || res.Err.Code != InvalidParams || len(seen) != 1 {
		t.Fatalf("invalid arguments reached the preflight (%q), or were not refused: %s", seen, res.JSON)
	}
	res := run(`{"word":"user"}`)
	if res.Err != nil || ran != 1 || len(res.Envelope.Warnings) != 1 || res.Envelope.Warnings[0] != "less than wanted" {
		t.Fatalf("allowed call: %s (handler ran %d times)", res.JSON, ran)
	}
}
