package tool

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// defaultsFromTags gives an input property the schema's default keyword
// from its Go field's `default` tag (default:"5", default:"TERM"): a model
// reads it as well as "default 5" in a description, in half the bytes, and
// the schema is resolved with its defaults validated, so one outside the
// argument's type, range or enum fails Def.Check (the catalogue test runs
// it on every tool) and the tool's first call. The tag
// holds a string as it is and any other value as JSON. The handler still
// applies the default to an argument left out.
func defaultsFromTags(tool string, t reflect.Type, s *jsonschema.Schema) {
	for i := range t.NumField() {
		f := t.Field(i)
		v, ok := f.Tag.Lookup("default")
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		p := s.Properties[name]
		if p == nil {
			panic(fmt.Sprintf("tool %q: default on %s, which is no argument", tool, f.Name))
		}
		raw := json.RawMessage(v)
		if p.Type == "string" {
			raw, _ = json.Marshal(v)
		} else if !json.Valid(raw) {
			panic(fmt.Sprintf("tool %q: default of %s is not JSON: %s", tool, name, v))
		}
		p.Default = raw
	}
}

// resolveOptions checks the defaults whenever an input schema is resolved.
var resolveOptions = &jsonschema.ResolveOptions{ValidateDefaults: true}
