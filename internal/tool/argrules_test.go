package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type rulesIn struct {
	Path   string `json:"path,omitempty" jsonschema:"a directory"`
	Fuzzy  *bool  `json:"fuzzy,omitempty" jsonschema:"match loosely"`
	PID    int    `json:"pid,omitempty" jsonschema:"a process"`
	Group  string `json:"group,omitempty" jsonschema:"a group"`
	Count  *int   `json:"count,omitempty" jsonschema:"how many"`
	Labels []int  `json:"labels,omitempty" jsonschema:"numbers"`
}

// rulesDef echoes the arguments its handler got.
func rulesDef() *Def {
	return New(Spec{Name: "rules", Title: "Rules", Description: "Takes aliases.", Kind: ReadOnly},
		func(_ context.Context, _ *Call, in rulesIn) (rulesIn, error) { return in, nil }).
		WithAlias("root", "path").WithOpposite("exact", "fuzzy").WithMaxLength("path", 100).
		WithExactlyOne("pid", "group")
}

func callRules(t *testing.T, args string) (rulesIn, *Error) {
	t.Helper()
	res := (&Runner{}).Run(context.Background(), Invocation{Def: rulesDef(), Args: json.RawMessage(args)})
	var got rulesIn
	if res.Err == nil {
		if err := json.Unmarshal(res.Envelope.Data, &got); err != nil {
			t.Fatal(err)
		}
	}
	return got, res.Err
}

func TestArgumentRules(t *testing.T) {
	yes, no, two := true, false, 2
	cases := []struct {
		args string
		want rulesIn
		err  string // in the message, when refused
	}{
		{`{"pid":1,"path":"a"}`, rulesIn{PID: 1, Path: "a"}, ""},
		{`{"pid":1,"root":"a"}`, rulesIn{PID: 1, Path: "a"}, ""},
		{`{"pid":1,"root":"a","path":"a"}`, rulesIn{PID: 1, Path: "a"}, ""},
		{`{"pid":1,"root":"a","path":"\u0061"}`, rulesIn{PID: 1, Path: "a"}, ""},
		{`{"pid":1,"root":"a","path":"b"}`, rulesIn{}, "root and path name one argument, and were given different values"},
		{`{"pid":1,"root":"` + strings.Repeat("x", 101) + `"}`, rulesIn{}, "argument root is 101 characters long, over its limit of 100"},
		{`{"pid":1,"exact":true}`, rulesIn{PID: 1, Fuzzy: &no}, ""},
		{`{"pid":1,"exact":false}`, rulesIn{PID: 1, Fuzzy: &yes}, ""},
		{`{"pid":1,"exact":false,"fuzzy":true}`, rulesIn{PID: 1, Fuzzy: &yes}, ""},
		{`{"pid":1,"exact":true,"fuzzy":true}`, rulesIn{}, "exact and fuzzy contradict each other"},
		{`{"pid":1,"exact":"yes"}`, rulesIn{}, "argument exact must be a boolean, not a string"},
		{`{"group":"g","count":null,"fuzzy":null,"path":null,"labels":null}`, rulesIn{Group: "g"}, ""},
		{`{"group":"g","count":2}`, rulesIn{Group: "g", Count: &two}, ""},
		{`{"group":"g","pid":null}`, rulesIn{Group: "g"}, ""},
		{`{}`, rulesIn{}, "give exactly one of pid and group; got none"},
		{`{"pid":null,"group":null}`, rulesIn{}, "give exactly one of pid and group; got none"},
		{`{"pid":1,"group":""}`, rulesIn{}, "give exactly one of pid and group; got pid and group"},
		{`{"group":"g","labels":[1,null]}`, rulesIn{}, "labels"},
	}
	for _, tc := range cases {
		got, terr := callRules(t, tc.args)
		switch {
		case tc.err != "":
			if terr == nil || terr.Code != InvalidParams || !strings.Contains(terr.Message, tc.err) {
				t.Errorf("%s: want INVALID_PARAMS with %q, got %+v", tc.args, tc.err, terr)
			}
		case terr != nil:
			t.Errorf("%s: %s: %s", tc.args, terr.Code, terr.Message)
		default:
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s: handler got (-want +got):\n%s", tc.args, diff)
			}
		}
	}
}

// An alias is in the schema with its argument's type and bounds and says
// whose alias it is; the exactly-one rule is in each argument's description.
func TestArgumentRulesInTheSchema(t *testing.T) {
	p := rulesDef().InputSchema().Properties
	if p["root"].Type != "string" || *p["root"].MaxLength != 100 || p["root"].Description != "alias of path" {
		t.Errorf("root: %+v", p["root"])
	}
	if p["exact"].Type != "boolean" || p["exact"].Description != "opposite of fuzzy" {
		t.Errorf("exact: %+v", p["exact"])
	}
	for _, n := range []string{"pid", "group"} {
		if !strings.HasSuffix(p[n].Description, "; exactly one of pid, group") {
			t.Errorf("%s: %q", n, p[n].Description)
		}
	}
}

// No input schema may have a property of no single type: strict clients
// refuse true (any) and type lists, and building such a tool's schema
// panics (the catalogue test builds every tool's).
func TestStrictInputRefusesUntypedArguments(t *testing.T) {
	type anyIn struct {
		X any `json:"x" jsonschema:"anything"`
	}
	type anyItems struct {
		X []any `json:"x" jsonschema:"anything"`
	}
	type anyValues struct {
		X map[string]any `json:"x" jsonschema:"anything"`
	}
	try := func(name string, build func()) {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), "strict clients") && !strings.Contains(r.(string), "list of anything") {
				t.Errorf("%s: want a panic naming strict clients, got %v", name, r)
			}
		}()
		build()
	}
	try("any", func() {
		New(Spec{Name: "a", Title: "A", Description: "A.", Kind: ReadOnly}, func(context.Context, *Call, anyIn) (echoOut, error) { return echoOut{}, nil }).InputSchema()
	})
	try("[]any", func() {
		New(Spec{Name: "a", Title: "A", Description: "A.", Kind: ReadOnly}, func(context.Context, *Call, anyItems) (echoOut, error) { return echoOut{}, nil }).InputSchema()
	})
	try("map[string]any", func() {
		New(Spec{Name: "a", Title: "A", Description: "A.", Kind: ReadOnly}, func(context.Context, *Call, anyValues) (echoOut, error) { return echoOut{}, nil }).InputSchema()
	})
	p := rulesDef().InputSchema().Properties
	if p["count"].Type != "integer" || p["count"].Types != nil || p["labels"].Type != "array" || p["labels"].Items.Type != "integer" {
		t.Errorf("pointer and slice arguments: count %v %v, labels %v", p["count"].Type, p["count"].Types, p["labels"].Type)
	}
}
