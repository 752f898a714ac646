package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// alias is a second name of an argument: one the agent may know from
// another tool (search's root is the file tools' path), or an earlier name.
// An opposite names the boolean's negation (case_sensitive for
// ignore_case).
type alias struct {
	name, main string
	opposite   bool
}

// WithAlias lets the tool take its argument main under a second name as
// well. The schema lists the alias, described as such, with main's type and
// bounds; a call that gives both with different values is refused.
func (d *Def) WithAlias(name, main string) *Def {
	return d.addAlias(alias{name: name, main: main})
}

// WithOpposite lets the tool take its boolean argument main as its
// negation, name (ignore_case given as case_sensitive).
func (d *Def) WithOpposite(name, main string) *Def {
	return d.addAlias(alias{name: name, main: main, opposite: true})
}

func (d *Def) addAlias(a alias) *Def {
	for _, b := range d.aliases {
		if b.name == a.name {
			panic(fmt.Sprintf("tool %q: %q is already an argument", d.Spec.Name, a.name))
		}
	}
	d.aliases = append(d.aliases, a)
	return d.refine(func(s *jsonschema.Schema) {
		if main := d.property(s, a.main); a.opposite && main.Type != "boolean" {
			panic(fmt.Sprintf("tool %q: %q is not a boolean", d.Spec.Name, a.main))
		}
		if _, taken := s.Properties[a.name]; taken {
			panic(fmt.Sprintf("tool %q: %q is already an argument", d.Spec.Name, a.name))
		}
		s.PropertyOrder = append(s.PropertyOrder, a.name)
	})
}

// WithExactlyOne says that a call gives exactly one of the named
// arguments. Strict clients refuse the JSON Schema that says it (oneOf or
// anyOf at the top level, or if, not and dependentSchemas), so the rule is
// stated where every client shows it, each argument's description, and
// checked before the arguments are validated.
func (d *Def) WithExactlyOne(names ...string) *Def {
	if len(names) < 2 {
		panic(fmt.Sprintf("tool %q: WithExactlyOne needs two arguments or more", d.Spec.Name))
	}
	d.exactlyOne = append(d.exactlyOne, names)
	rule := "exactly one of " + strings.Join(names, ", ")
	return d.refine(func(s *jsonschema.Schema) {
		for _, n := range names {
			p := d.property(s, n)
			p.Description = strings.TrimSuffix(p.Description, ".") + "; " + rule
		}
	})
}

// Aliases maps each alias of an argument to the argument it names; an
// opposite is marked with a leading "!".
func (d *Def) Aliases() map[string]string {
	m := make(map[string]string, len(d.aliases))
	for _, a := range d.aliases {
		m[a.name] = a.main
		if a.opposite {
			m[a.name] = "!" + a.main
		}
	}
	return m
}

// syncAliases gives each alias of the input schema s the schema of its
// argument, as the refinements left it (its range or enum may have been
// set after the alias).
func (d *Def) syncAliases(s *jsonschema.Schema) {
	for _, a := range d.aliases {
		c := *s.Properties[a.main]
		c.Description = "alias of " + a.main
		if a.opposite {
			c.Description = "opposite of " + a.main
		}
		s.Properties[a.name] = &c
	}
}

// applyRules drops null arguments (a client that sends null for an
// optional argument means it is not given; the schema types none as
// nullable), folds aliases into their arguments and checks the
// exactly-one rules. It returns raw itself when nothing changed.
func (d *Def) applyRules(raw json.RawMessage) (json.RawMessage, error) {
	var args map[string]json.RawMessage
	if err := json.Unmarshal(raw, &args); err != nil {
		return nil, Errorf(InvalidParams, "arguments are not valid JSON: %v", err)
	}
	changed := false
	for k, v := range args {
		if bytes.Equal(v, []byte("null")) {
			delete(args, k)
			changed = true
		}
	}
	for _, a := range d.aliases {
		v, ok := args[a.name]
		if !ok {
			continue
		}
		delete(args, a.name)
		changed = true
		if a.opposite {
			v = json.RawMessage(fmt.Sprint(string(v) != "true"))
		}
		if main, ok := args[a.main]; ok && !sameJSON(main, v) {
			if a.opposite {
				return nil, Errorf(InvalidParams, "%s and %s contradict each other: %s is the opposite of %s", a.name, a.main, a.name, a.main).
					WithSuggestion("Call again with %s only.", a.main)
			}
			return nil, Errorf(InvalidParams, "%s and %s name one argument, and were given different values", a.name, a.main).
				WithSuggestion("Call again with %s only (%s is its alias).", a.main, a.name)
		}
		args[a.main] = v
	}
	for _, names := range d.exactlyOne {
		given := slices.DeleteFunc(slices.Clone(names), func(n string) bool { _, ok := args[n]; return !ok })
		if len(given) != 1 {
			got := "none"
			if len(given) > 1 {
				got = strings.Join(given, " and ")
			}
			return nil, Errorf(InvalidParams, "give exactly one of %s; got %s", strings.Join(names, " and "), got).
				WithSuggestion("Call again with one of %s.", strings.Join(names, ", "))
		}
	}
	if !changed {
		return raw, nil
	}
	out, err := json.Marshal(args)
	if err != nil {
		return nil, Errorf(InvalidParams, "arguments: %v", err)
	}
	return out, nil
}

// sameJSON reports whether two JSON values are equal as values ("a" and
// "\u0061", 1 and 1.0).
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
