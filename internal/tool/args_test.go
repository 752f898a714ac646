package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

type boundsIn struct {
	Path    string            `json:"path" jsonschema:"a path"`
	Program string            `json:"program,omitempty" jsonschema:"a long text"`
	Mode    string            `json:"mode,omitempty" jsonschema:"a or b"`
	Argv    []string          `json:"argv,omitempty" jsonschema:"a list"`
	PIDs    []int             `json:"pids,omitempty" jsonschema:"numbers"`
	Env     map[string]string `json:"env,omitempty" jsonschema:"a map"`
	Count   *int              `json:"count,omitempty" jsonschema:"a number"`
}

func boundsDef() *Def {
	return New(Spec{Name: "bounded", Title: "Bounded", Description: "Takes bounded arguments.", Kind: ReadOnly},
		func(context.Context, *Call, boundsIn) (echoOut, error) { return echoOut{}, nil }).
		WithEnum("mode", "a", "b").WithMaxLength("program", 65536).WithMaxItems("argv", 4, 16)
}

// Every string, list and map of every tool gets a bound, shown in its
// schema: the default where the tool declares none.
func TestSchemaStatesBounds(t *testing.T) {
	d := boundsDef()
	p := d.InputSchema().Properties
	got := map[string]any{
		"path": *p["path"].MaxLength, "program": *p["program"].MaxLength, "mode": p["mode"].MaxLength == nil,
		"argv": *p["argv"].MaxItems, "argv[]": *p["argv"].Items.MaxLength, "pids": *p["pids"].MaxItems,
		"env": *p["env"].MaxProperties, "env{}": *p["env"].AdditionalProperties.MaxLength,
	}
	want := map[string]any{
		"path": DefaultMaxLength, "program": 65536, "mode": true,
		"argv": 4, "argv[]": 16, "pids": DefaultMaxItems,
		"env": DefaultMaxProperties, "env{}": DefaultMaxLength,
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: bound %v, want %v", k, got[k], w)
		}
	}
}

func TestArgumentBounds(t *testing.T) {
	long := strings.Repeat("x", 5000)
	cases := []struct {
		name, args, want string
	}{
		{"long string", `{"path":"` + long + `"}`, "argument path is 5000 characters long, over its limit of 4096"},
		{"long string counted in characters", `{"path":"` + strings.Repeat("é", 4096) + `"}`, ""},
		{"declared longer", `{"path":"p","program":"` + long + `"}`, ""},
		{"long item", `{"path":"p","argv":["` + long + `"]}`, "argument argv[0] is 5000 characters long, over its limit of 16"},
		{"long list", `{"path":"p","argv":["a","b","c","d","e"]}`, "argument argv has more than 4 items, its limit"},
		{"long default list", `{"path":"p","pids":[` + strings.Repeat("1,", 300) + `1]}`, "argument pids has more than 256 items"},
		{"big map", `{"path":"p","env":{` + manyKeys(65) + `}}`, "argument env has more than 64 entries"},
		{"long map value", `{"path":"p","env":{"K":"` + long + `"}}`, "argument env.K is 5000 characters long"},
		{"enum", `{"path":"p","mode":"` + long + `"}`, "argument mode is \"xxx"},
		{"nested too deep", `{"path":"p","argv":[[[[["x"]]]]]}`, "argument argv[0] must be a string, not a list"},
		{"deep unknown", `{"path":"p","zz":` + strings.Repeat("[", 20) + strings.Repeat("]", 20) + `}`, "argument zz nests lists and objects deeper than 8 levels"},
		{"wrong type", `{"path":{"a":1}}`, "argument path must be a string, not an object"},
		{"pointer takes null", `{"path":"p","count":null}`, ""},
		{"unknown", `{"path":"p","bogus":1,"other":"` + long + `"}`, "unknown argument bogus, other: this tool takes only argv, count, env, mode, path, pids, program"},
		{"many unknown", "{" + manyKeys(5000) + "}", "and more: this tool takes only"},
		{"long unknown names", `{"` + long + `1":1,"` + long + `2":2,"` + long + `3":3}`, "unknown argument xxxx"},
		{"duplicate keys", `{"path":"p",` + strings.Repeat(`"path":"p",`, 100) + `"path":"p"}`, "the arguments have more than"},
		{"not JSON", `{"path":`, "arguments are not valid JSON"},
		{"trailing data", `{"path":"p"} {}`, "arguments are not valid JSON"},
		{"not an object", `["x"]`, "arguments must be a JSON object"},
	}
	d := boundsDef()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := (&Runner{}).Run(context.Background(), Invocation{Def: d, Args: json.RawMessage(tc.args)})
			if tc.want == "" {
				if res.Err != nil {
					t.Fatalf("refused: %s", res.Err.Message)
				}
				return
			}
			if res.Err == nil || res.Err.Code != InvalidParams || !strings.Contains(res.Err.Message, tc.want) {
				t.Fatalf("got %+v, want INVALID_PARAMS with %q", res.Err, tc.want)
			}
			if len(res.Err.Message) > 600 {
				t.Errorf("message of %d bytes quotes too much of the input: %.300s", len(res.Err.Message), res.Err.Message)
			}
		})
	}
}

func manyKeys(n int) string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf(`"k%d":""`, i)
	}
	return strings.Join(keys, ",")
}

// A list of two million numbers decoded whole took 64 MB before its length
// was looked at; it is refused after its first items now.
func TestLongListRefusedBeforeDecoding(t *testing.T) {
	args := json.RawMessage(`{"path":"p","pids":[` + strings.Repeat("1,", 2<<20) + `1]}`)
	d := boundsDef()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := (&Runner{}).Run(context.Background(), Invocation{Def: d, Args: args})
	runtime.ReadMemStats(&after)
	if res.Err == nil || res.Err.Code != InvalidParams {
		t.Fatalf("want INVALID_PARAMS, got %+v", res.Err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2<<20 {
		t.Errorf("refusing the list allocated %d KiB", alloc>>10)
	}
}

// The served schema leaves out the default string bound, which the
// server's instructions state once, and keeps a tool's own; the framework
// checks both whatever is served.
func TestServedSchemaLeavesOutTheDefaultBound(t *testing.T) {
	d := boundsDef()
	var served struct {
		Properties map[string]struct {
			MaxLength *int `json:"maxLength"`
			Items     *struct {
				MaxLength *int `json:"maxLength"`
			} `json:"items"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(d.MCPTool().InputSchema.(json.RawMessage), &served); err != nil {
		t.Fatal(err)
	}
	p := served.Properties
	if p["path"].MaxLength != nil || p["program"].MaxLength == nil || *p["program"].MaxLength != 65536 || *p["argv"].Items.MaxLength != 16 {
		t.Errorf("served bounds: path %v, program %v, argv[] %v", p["path"].MaxLength, p["program"].MaxLength, p["argv"].Items.MaxLength)
	}
	if d.InputSchema().Properties["path"].MaxLength == nil {
		t.Error("the schema the framework checks lost its default bound")
	}
}
