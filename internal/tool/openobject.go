package tool

import (
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// WithOpenObject makes a top-level input property an object whose names
// and values are free: the arguments of another tool, passed through to
// it (fleet_call's args), which that tool validates. The Go field's type
// must infer as an object (a struct that decodes itself); its schema
// becomes {"type": "object"} with the default bound on its properties and
// the field's description. Strict clients accept it: it names one type and
// no schema that is just true.
func (d *Def) WithOpenObject(prop string) *Def {
	return d.refine(func(s *jsonschema.Schema) {
		p := d.property(s, prop)
		if p.Type != "object" {
			panic(fmt.Sprintf("tool %q: input property %q is not an object", d.Spec.Name, prop))
		}
		s.Properties[prop] = &jsonschema.Schema{
			Type:          "object",
			Description:   p.Description,
			MaxProperties: intPtr(DefaultMaxProperties),
		}
	})
}
