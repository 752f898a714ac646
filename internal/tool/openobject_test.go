package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// passedArgs keeps an argument's JSON as it came, for a tool that hands it
// on to another tool.
type passedArgs struct{ raw json.RawMessage }

func (p *passedArgs) UnmarshalJSON(b []byte) error {
	p.raw = append(json.RawMessage(nil), b...)
	return nil
}

type openIn struct {
	Args passedArgs `json:"args" jsonschema:"the other tool's arguments"`
}

type openOut struct {
	Got json.RawMessage `json:"got"`
}

func openDef() *Def {
	return New(Spec{Name: "open", Title: "Open", Description: "Passes arguments on.", Kind: ReadOnly, OpenWorld: true},
		func(_ context.Context, _ *Call, in openIn) (openOut, error) { return openOut{Got: in.Args.raw}, nil }).
		WithOpenObject("args")
}

// An open object takes any names and values, nested, within the default
// bounds, and is served as a plain object: one type, no schema that is
// just true, which strict clients refuse.
func TestOpenObject(t *testing.T) {
	d := openDef()
	b, _ := json.Marshal(d.MCPTool().InputSchema)
	if want := `"args":{"type":"object","description":"the other tool's arguments","maxProperties":64}`; !strings.Contains(string(b), want) {
		t.Errorf("schema %s\nwant it to contain %s", b, want)
	}
	many := map[string]int{}
	for i := range DefaultMaxProperties + 1 {
		many["k"+strings.Repeat("x", i)] = i
	}
	tooMany, _ := json.Marshal(map[string]any{"args": many})
	cases := []struct{ args, want, err string }{
		{`{"args":{"pid":1,"paths":["/a"],"deep":{"x":null}}}`, `{"pid":1,"paths":["/a"],"deep":{"x":null}}`, ""},
		{`{"args":{}}`, `{}`, ""},
		{`{"args":[1]}`, "", "args"},
		{`{"args":"x"}`, "", "args"},
		{string(tooMany), "", "args"},
	}
	for _, tc := range cases {
		res := (&Runner{}).Run(context.Background(), Invocation{Def: d, Args: json.RawMessage(tc.args)})
		if tc.err != "" {
			if res.Err == nil || res.Err.Code != InvalidParams || !strings.Contains(res.Err.Message, tc.err) {
				t.Errorf("%.60s: %v, want INVALID_PARAMS naming %s", tc.args, res.Err, tc.err)
			}
			continue
		}
		if res.Err != nil {
			t.Errorf("%s: %v", tc.args, res.Err)
			continue
		}
		var got openOut
		if err := json.Unmarshal(res.Envelope.Data, &got); err != nil || string(got.Got) != tc.want {
			t.Errorf("%s: handler got %s (%v), want %s", tc.args, got.Got, err, tc.want)
		}
	}
}

// A tool that reaches beyond this host says so in openWorldHint.
func TestOpenWorldHint(t *testing.T) {
	if a := openDef().MCPTool().Annotations; a.OpenWorldHint == nil || !*a.OpenWorldHint || !a.ReadOnlyHint {
		t.Errorf("annotations %+v: want read-only and open-world", a)
	}
	if a := rulesDef().MCPTool().Annotations; a.OpenWorldHint == nil || *a.OpenWorldHint {
		t.Errorf("a tool of this host: openWorldHint %v, want false", a.OpenWorldHint)
	}
}
