package tool

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
)

// Why a tool's input schema tree waits for its first use. Inferring the
// 51 tools' input schemas by reflection, and marshalling them for
// tools/list, allocated about 2 MB at every start-up, held 0.45 MiB of
// jsonschema.Schema nodes that only a first call needs, and left survivors
// scattered over the heap's spans: a serving process that is never called
// pays for all of it. The catalogue's tools serve JSON generated at build
// time instead (ServeInput; catalog's input_schemas.txt, kept equal to
// what inference gives by a test), and the tree is built, from the Go
// type and the With methods' refinements in their order, the first time
// something reads it: a call's validation, docs/tools.md, `hostmcp tools`
// for a tool without generated JSON, or a test (bench/RESULTS.md, "Idle
// memory: input schemas generated at build time").

// InputSchema is the tool's input schema, built on first use. It is
// shared: a caller reads it, never writes it.
func (d *Def) InputSchema() *jsonschema.Schema { return d.tree() }

// ServeInput has tools/list serve raw as the tool's input schema instead
// of marshalling the tree: raw is what ServedInputFromTree gave when it was
// generated at build time, which the catalogue's test keeps true. The
// bytes are shared, never written to.
func (d *Def) ServeInput(raw json.RawMessage) { d.generatedInput = raw }

// ServedInputFromTree is the input schema as tools/list serves it
// (servedInput), marshalled from the tree, which it builds if needed:
// what ServeInput is given, generated.
func (d *Def) ServedInputFromTree() json.RawMessage {
	return marshalled(d.Spec.Name, d.servedInput())
}

// servedInputJSON is what tools/list serves as the input schema.
func (d *Def) servedInputJSON() json.RawMessage {
	if d.generatedInput != nil {
		return d.generatedInput
	}
	return d.ServedInputFromTree()
}

// refine records a change to the input schema's tree, made when the tree
// is built, after inference and the refinements recorded before it. A
// definition is refined while it is built, before anything reads its
// schema: a later refinement would be lost, so it panics.
func (d *Def) refine(change func(*jsonschema.Schema)) *Def {
	if d.built.Load() {
		panic(fmt.Sprintf("tool %q: input schema refined after it was built", d.Spec.Name))
	}
	d.refinements = append(d.refinements, change)
	return d
}

// inferInput infers the input schema of type t, made strict and bounded
// and given the defaults of its tags. It panics on a malformed input type.
func inferInput(tool string, t reflect.Type) *jsonschema.Schema {
	in, err := jsonschema.ForType(t, nil)
	if err != nil {
		panic(fmt.Sprintf("tool %q: input schema: %v", tool, err))
	}
	if in.Type != "object" {
		panic(fmt.Sprintf("tool %q: input must be a struct", tool))
	}
	if in.Properties == nil {
		// An empty object schema must still say it has no properties, or
		// some clients render it as "any arguments".
		in.Properties = map[string]*jsonschema.Schema{}
	}
	strictInput(tool, in, "")
	boundSchema(in)
	defaultsFromTags(tool, t, in)
	return in
}
