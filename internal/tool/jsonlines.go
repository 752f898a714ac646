package tool

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// A handle of JSON lines is written for a whole listing, thousands of
// items (2,500 hits with their context, about 1 MB, for a content search):
// json.Encoder there cost more than storing the bytes (bench/RESULTS.md,
// "The cost of keeping a result as a handle"). linePlan writes the items
// of a flat struct type (string, bool and integer fields, or pointers to
// them), which is what the listings are, in one pass into one buffer;
// every other type goes to encoding/json. The bytes are encoding/json's
// (TestJSONLinesMatchesEncodingJSON).

// linePlan is how to write one item of a struct type: its fields in
// order, as encoding/json would write them.
type linePlan struct {
	fields []lineField
}

type lineField struct {
	index     int
	key       string // `"name":`
	kind      reflect.Kind
	pointer   bool // the field is a pointer to kind: nil is null
	omitEmpty bool
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// planLines returns the plan for items of type t, or ok=false when t is
// anything a plan does not cover exactly: not a struct, a method of its
// own encoding on it or a field, an embedded struct, a tag option other
// than omitempty, a name needing care, or a field of another kind.
func planLines(t reflect.Type) (p linePlan, ok bool) {
	if t.Kind() != reflect.Struct || customEncoding(t) {
		return linePlan{}, false
	}
	seen := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			return linePlan{}, false
		}
		tag := f.Tag.Get("json")
		if !f.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		if (opts != "" && opts != "omitempty") || !plainName(name) || seen[name] {
			return linePlan{}, false
		}
		seen[name] = true
		lf := lineField{index: i, key: `"` + name + `":`, omitEmpty: opts == "omitempty"}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			if customEncoding(ft) {
				return linePlan{}, false
			}
			lf.pointer, ft = true, ft.Elem()
		}
		if customEncoding(ft) || ft == numberType {
			return linePlan{}, false // json.Number is a string written bare
		}
		switch lf.kind = ft.Kind(); lf.kind {
		case reflect.String, reflect.Bool,
			reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		default:
			return linePlan{}, false
		}
		p.fields = append(p.fields, lf)
	}
	return p, true
}

// numberType is json.Number, a string kind encoding/json writes as a number.
var numberType = reflect.TypeFor[json.Number]()

// customEncoding reports whether t or *t encodes itself.
func customEncoding(t reflect.Type) bool {
	for _, u := range []reflect.Type{t, reflect.PointerTo(t)} {
		if u.Implements(marshalerType) || u.Implements(textMarshalerType) {
			return true
		}
	}
	return false
}

// plainName reports whether a field name is written as it is: letters,
// digits, '_' and '-' only, which encoding/json neither escapes nor
// refuses.
func plainName(name string) bool {
	for _, c := range []byte(name) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return name != ""
}

// appendItem appends v, a struct of the plan's type, as one JSON object.
func (p *linePlan) appendItem(dst []byte, v reflect.Value) []byte {
	dst = append(dst, '{')
	first := true
	for i := range p.fields {
		f := &p.fields[i]
		fv := v.Field(f.index)
		if f.pointer {
			if fv.IsNil() {
				if !f.omitEmpty {
					dst = appendKey(dst, f.key, &first)
					dst = append(dst, "null"...)
				}
				continue
			}
			fv = fv.Elem()
		} else if f.omitEmpty && fv.IsZero() {
			continue
		}
		dst = appendKey(dst, f.key, &first)
		switch f.kind {
		case reflect.String:
			dst = appendJSONString(dst, fv.String())
		case reflect.Bool:
			dst = strconv.AppendBool(dst, fv.Bool())
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			dst = strconv.AppendInt(dst, fv.Int(), 10)
		default:
			dst = strconv.AppendUint(dst, fv.Uint(), 10)
		}
	}
	return append(dst, '}')
}

func appendKey(dst []byte, key string, first *bool) []byte {
	if !*first {
		dst = append(dst, ',')
	}
	*first = false
	return append(dst, key...)
}

// appendLines writes items by the plan, one per line, into one buffer
// sized from the first sixteen: a 1 MB listing is not copied again and
// again as its buffer grows.
func appendLines[T any](p *linePlan, items []T) []byte {
	const sample = 16
	var b []byte
	for i := range items {
		b = p.appendItem(b, reflect.ValueOf(&items[i]).Elem())
		b = append(b, '\n')
		if i == sample-1 && len(items) > sample {
			b = slices.Grow(b, len(b)/sample*(len(items)-sample)*9/8)
		}
	}
	return b
}
