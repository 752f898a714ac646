package tool

import (
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// strictInput makes an inferred input schema one that strict
// function-calling clients accept, or panics naming what no such client
// would take. Clients backed by Gemini refuse a "type" that is a list, which
// jsonschema-go writes for every pointer, slice and map (["null",
// "integer"]), and a schema that is the boolean true (an any or
// json.RawMessage field); one refused tool fails every request that carries
// the tool list. So every schema names exactly one type, never null: a
// pointer field stays a pointer (nil when the argument is not given), and a
// null argument counts as not given (dropNulls).
func strictInput(tool string, s *jsonschema.Schema, at string) {
	if s.Type == "" {
		types := slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" })
		if len(types) != 1 {
			panic(fmt.Sprintf("tool %q: input %s has no single type (%v): strict clients refuse it", tool, where(at), s.Types))
		}
		s.Type, s.Types = types[0], nil
	}
	if s.Type == "null" {
		panic(fmt.Sprintf("tool %q: input %s has type null", tool, where(at)))
	}
	if s.AnyOf != nil || s.OneOf != nil || s.AllOf != nil || s.Not != nil || s.If != nil {
		panic(fmt.Sprintf("tool %q: input %s combines schemas, which strict clients refuse", tool, where(at)))
	}
	for name, p := range s.Properties {
		strictInput(tool, p, at+"."+name)
	}
	if s.Type == "array" {
		if s.Items == nil {
			panic(fmt.Sprintf("tool %q: input %s is a list of anything", tool, where(at)))
		}
		strictInput(tool, s.Items, at+"[]")
	}
	if isMap(s) {
		strictInput(tool, s.AdditionalProperties, at+"{}")
	}
}

func where(at string) string {
	if at == "" {
		return "schema"
	}
	return "argument " + at[1:]
}
