package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// A schema is resolved on first use, not when the tool is built; a
// malformed one must still be found, by Check (which the catalogue test
// runs on every tool) and by a call, which gets INTERNAL rather than
// running unvalidated.
func TestCheckFindsWhatResolutionRefuses(t *testing.T) {
	type in struct {
		Count int `json:"count,omitempty" jsonschema:"how many" default:"50"`
	}
	h := func(context.Context, *Call, in) (struct{}, error) { return struct{}{}, nil }
	d := New(Spec{Name: "a", Title: "A", Description: "d", Kind: ReadOnly}, h).WithRange("count", 1, 10)
	err := d.Check()
	if err == nil || !strings.Contains(err.Error(), "maximum") {
		t.Fatalf("Check() = %v, want the default out of range", err)
	}
	_, err = d.invoke(context.Background(), &Call{}, json.RawMessage(`{"count":5}`))
	if err == nil || AsError(err).Code != Internal {
		t.Errorf("call = %v, want INTERNAL", err)
	}
	good := New(Spec{Name: "b", Title: "B", Description: "d", Kind: ReadOnly}, h).WithRange("count", 1, 100)
	if err := good.Check(); err != nil {
		t.Errorf("Check() of a sound tool = %v", err)
	}
}

// The output schema is inferred on first use; its data fields are the
// tool's output type's.
func TestOutputSchemaOnFirstUse(t *testing.T) {
	type out struct {
		Lines []string `json:"lines" jsonschema:"the lines"`
	}
	d := New(Spec{Name: "a", Title: "A", Description: "d", Kind: ReadOnly},
		func(context.Context, *Call, struct{}) (out, error) { return out{}, nil })
	s, err := d.OutputSchema()
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Properties["data"].Properties["lines"]; p == nil || p.Items == nil {
		t.Errorf("data.lines = %+v, want an array", p)
	}
	if s.Properties["success"] == nil {
		t.Error("the envelope's fields are missing")
	}
}
