package catalog

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

// TestInputSchemasSuitStrictClients checks every served input schema, as
// sent, against what strict function-calling clients accept: those backed
// by Gemini refuse a schema that is the boolean true (or {}, its
// equivalent) and a "type" that is a list such as ["null", "integer"];
// Anthropic's API refuses oneOf, anyOf and allOf at the top level, and any
// one tool refused fails every request that carries the tool list. So every
// schema in an input schema names exactly one type.
func TestInputSchemasSuitStrictClients(t *testing.T) {
	for _, ts := range all(t) {
		for _, d := range ts.Tools {
			var s any
			if err := json.Unmarshal(d.MCPTool().InputSchema.(json.RawMessage), &s); err != nil {
				t.Fatalf("%s: %v", d.Spec.Name, err)
			}
			top, _ := s.(map[string]any)
			for _, k := range []string{"oneOf", "anyOf", "allOf"} {
				if _, ok := top[k]; ok {
					t.Errorf("%s: %s at the top level of the input schema", d.Spec.Name, k)
				}
			}
			for _, p := range strictProblems(s, "") {
				t.Errorf("%s: input schema%s", d.Spec.Name, p)
			}
		}
	}
}

// strictProblems lists where a JSON schema (as decoded JSON) is a bare
// boolean or empty schema, or has no single type.
func strictProblems(s any, at string) []string {
	obj, ok := s.(map[string]any)
	if !ok || len(obj) == 0 {
		if at == "" || !isFalse(s) { // additionalProperties: false closes an object: not a schema of a value
			return []string{fmt.Sprintf("%s is %s, not a typed schema", at, compact(s))}
		}
		return nil
	}
	var out []string
	switch typ := obj["type"].(type) {
	case string:
		if typ == "null" {
			out = append(out, fmt.Sprintf("%s has type null", at))
		}
	default:
		out = append(out, fmt.Sprintf("%s has type %s, not one type", at, compact(obj["type"])))
	}
	if props, ok := obj["properties"].(map[string]any); ok {
		names := make([]string, 0, len(props))
		for n := range props {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			out = append(out, strictProblems(props[n], at+"."+n)...)
		}
	}
	if items, ok := obj["items"]; ok {
		out = append(out, strictProblems(items, at+"[]")...)
	} else if obj["type"] == "array" {
		out = append(out, fmt.Sprintf("%s is a list whose items have no schema", at))
	}
	if ap, ok := obj["additionalProperties"]; ok && !isFalse(ap) {
		out = append(out, strictProblems(ap, at+"{}")...)
	}
	return out
}

func isFalse(v any) bool { b, ok := v.(bool); return ok && !b }

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
