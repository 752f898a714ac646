package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// maxUnknownNamed is how many unknown argument names a message lists.
const maxUnknownNamed = 8

// checkArgs reads raw arguments token by token against the input schema,
// before anything is decoded whole, and refuses at the first thing over a
// bound: a string longer than its maxLength, a list longer than its
// maxItems, a map with more than its maxProperties, nesting deeper than
// maxDepth or than the schema allows, an argument the tool does not take.
// It stops there, so a 4 MB string costs a few copies of itself and a list
// of two million items no more than its first few hundred; decoded whole
// into Go values first, that list took 64 MB. Messages name the argument,
// its size and the limit, and quote at most a clipped prefix of it.
func checkArgs(raw []byte, s *jsonschema.Schema) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return notJSON(err)
	}
	if tok != json.Delim('{') {
		return Errorf(InvalidParams, "arguments must be a JSON object")
	}
	a := &argReader{dec: dec}
	if err := a.object(s, "", 1); err != nil {
		return err
	}
	if len(a.unknown) > 0 {
		return unknownArgs(a.unknown, a.moreUnknown, s)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Errorf(InvalidParams, "arguments are not valid JSON: data after the object")
	}
	return nil
}

// argReader walks one call's arguments.
type argReader struct {
	dec         *json.Decoder
	unknown     []string // top-level names the tool does not take
	moreUnknown bool     // more than maxUnknownNamed of them
}

// value reads the value after the decoder's position, which s describes (nil:
// anything, within the default bounds).
func (a *argReader) value(s *jsonschema.Schema, name string, depth int) error {
	tok, err := a.dec.Token()
	if err != nil {
		return notJSON(err)
	}
	switch v := tok.(type) {
	case json.Delim:
		if depth >= maxDepth {
			return Errorf(InvalidParams, "argument %s nests lists and objects deeper than %d levels", name, maxDepth)
		}
		if v == '[' {
			if !admits(s, "array") {
				return wrongType(s, name, "a list")
			}
			return a.array(s, name, depth+1)
		}
		if !admits(s, "object") {
			return wrongType(s, name, "an object")
		}
		return a.object(s, name, depth+1)
	case string:
		if !admits(s, "string") {
			return wrongType(s, name, "a string")
		}
		return checkString(s, name, v)
	case json.Number:
		if !admits(s, "number") {
			return wrongType(s, name, "a number")
		}
	case bool:
		if !admits(s, "boolean") {
			return wrongType(s, name, "a boolean")
		}
	case nil:
		if depth == 1 {
			return nil // a top-level null: the argument is not given (applyRules)
		}
		if !admits(s, "null") {
			return wrongType(s, name, "null")
		}
	}
	return nil
}

func checkString(s *jsonschema.Schema, name, v string) error {
	if s != nil && len(s.Enum) > 0 {
		if !slices.Contains(s.Enum, any(v)) {
			return Errorf(InvalidParams, "argument %s is %q, not one of %s", name, Clip(v), enumList(s.Enum))
		}
		return nil
	}
	limit := maxLength(s)
	if len(v) <= limit { // at most as many characters as bytes: no need to count
		return nil
	}
	if n := utf8.RuneCountInString(v); n > limit {
		return Errorf(InvalidParams, "argument %s is %d characters long, over its limit of %d: %q", name, n, limit, Clip(v)).
			WithSuggestion("Send at most %d characters (the input schema's maxLength); narrow the request rather than enumerating it.", limit)
	}
	return nil
}

func (a *argReader) array(s *jsonschema.Schema, name string, depth int) error {
	var items *jsonschema.Schema
	if s != nil {
		items = s.Items
	}
	limit := maxItems(s)
	for n := 0; a.dec.More(); n++ {
		if n == limit {
			return Errorf(InvalidParams, "argument %s has more than %d items, its limit", name, limit).
				WithSuggestion("Send at most %d items (the input schema's maxItems), or make several calls.", limit)
		}
		if err := a.value(items, fmt.Sprintf("%s[%d]", name, n), depth); err != nil {
			return err
		}
	}
	return a.end()
}

func (a *argReader) object(s *jsonschema.Schema, name string, depth int) error {
	limit := maxProperties(s)
	if s != nil && !isMap(s) {
		limit += len(s.Properties) // a struct's own fields, then what any object may add
	}
	for n := 0; a.dec.More(); n++ {
		tok, err := a.dec.Token()
		if err != nil {
			return notJSON(err)
		}
		key, _ := tok.(string)
		if n == limit {
			what := "argument " + name + " has"
			if name == "" {
				what = "the arguments have"
			}
			return Errorf(InvalidParams, "%s more than %d entries, the limit", what, limit).
				WithSuggestion("Send at most %d entries (the input schema's maxProperties).", limit)
		}
		full := Clip(key)
		if name != "" {
			full = name + "." + full
		}
		var ps *jsonschema.Schema
		switch {
		case s == nil:
		case s.Properties[key] != nil:
			ps = s.Properties[key]
		case closed(s) && name == "":
			if len(a.unknown) == maxUnknownNamed {
				a.moreUnknown = true
				return nil // enough to say; the rest need not be read
			}
			a.unknown = append(a.unknown, full)
			if err := a.skip(full, depth); err != nil {
				return err
			}
			continue
		case closed(s):
			return Errorf(InvalidParams, "argument %s has no field %q", name, Clip(key))
		default:
			ps = s.AdditionalProperties
		}
		if err := a.value(ps, full, depth); err != nil {
			return err
		}
	}
	return a.end()
}

// skip reads past the value of an argument the tool does not take,
// whatever its size, so that the message can say it is unknown; only its
// nesting is bounded.
func (a *argReader) skip(name string, depth int) error {
	open := 0
	for {
		tok, err := a.dec.Token()
		if err != nil {
			return notJSON(err)
		}
		switch tok {
		case json.Delim('['), json.Delim('{'):
			if open++; depth+open > maxDepth {
				return Errorf(InvalidParams, "argument %s nests lists and objects deeper than %d levels", name, maxDepth)
			}
		case json.Delim(']'), json.Delim('}'):
			open--
		}
		if open == 0 {
			return nil
		}
	}
}

// end reads the closing delimiter of a list or an object.
func (a *argReader) end() error {
	if _, err := a.dec.Token(); err != nil {
		return notJSON(err)
	}
	return nil
}

func notJSON(err error) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return Errorf(InvalidParams, "arguments are not valid JSON: %v", err)
}

// wrongType says what an argument must be instead of what it is.
func wrongType(s *jsonschema.Schema, name, got string) error {
	want := s.Type
	if want == "" {
		want = strings.Join(slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" }), " or ")
	}
	return Errorf(InvalidParams, "argument %s must be %s, not %s", name, article(want), got)
}

func article(typ string) string {
	switch typ {
	case "array":
		return "a list"
	case "object", "integer":
		return "an " + typ
	}
	return "a " + typ
}

func enumList(enum []any) string {
	parts := make([]string, len(enum))
	for i, v := range enum {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ", ")
}

// unknownArgs names the arguments the tool does not take, and those it does,
// so that a guessed name ("max_results" for "lines") is fixed in one retry;
// the schema validator would only say "unexpected additional properties".
func unknownArgs(unknown []string, more bool, schema *jsonschema.Schema) error {
	slices.Sort(unknown)
	names := Clip(strings.Join(unknown, ", "))
	if more {
		names += " and more"
	}
	known := slices.Sorted(maps.Keys(schema.Properties))
	takes := "no arguments"
	if len(known) > 0 {
		takes = "only " + strings.Join(known, ", ")
	}
	return Errorf(InvalidParams, "unknown argument %s: this tool takes %s", names, takes).
		WithSuggestion("Call again with only the arguments the tool takes (see its input schema).")
}
