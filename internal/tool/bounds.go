package tool

import (
	"github.com/google/jsonschema-go/jsonschema"
)

// The bounds every argument of every tool has unless its tool declares its
// own (WithMaxLength, WithMaxItems). They are written into the input schema,
// so the agent sees them, and checked by the framework before any handler
// runs (args.go), so a new tool cannot forget them: whatever a call sends,
// what reaches a handler, a compile or an exec is this small.
const (
	// DefaultMaxLength is PATH_MAX, the longest path the kernel accepts.
	// Paths, names, ids, globs and patterns fit; a tool that takes text
	// (a file's content, a program) declares its own bound.
	DefaultMaxLength = 4096
	// DefaultMaxItems bounds a list: no tool needs more items than this
	// in one call (proc_list's pids, proc_start's argv).
	DefaultMaxItems = 256
	// DefaultMaxProperties bounds a map of names to values (proc_start's env).
	DefaultMaxProperties = 64
	// MaxTextLength bounds an argument that carries text (a file's content,
	// old_text, a diff): 4 Mi characters, what one message of the default
	// [stdio] max_message_bytes and [http] max_body_bytes can carry. A
	// larger file is written in parts (fs_write mode append).
	MaxTextLength = 4 << 20
	// maxDepth bounds how deep arguments nest lists and objects, whatever
	// a schema says: no tool's input nests deeper than three.
	maxDepth = 8
)

// boundSchema gives every string, list and map of an input schema the
// default bound where it has none of its own. A string restricted to an
// enum needs none: only the enum's values pass.
func boundSchema(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if admits(s, "string") && s.MaxLength == nil && len(s.Enum) == 0 {
		s.MaxLength = intPtr(DefaultMaxLength)
	}
	if admits(s, "array") && s.MaxItems == nil {
		s.MaxItems = intPtr(DefaultMaxItems)
	}
	if admits(s, "object") && isMap(s) && s.MaxProperties == nil {
		s.MaxProperties = intPtr(DefaultMaxProperties)
	}
	for _, p := range s.Properties {
		boundSchema(p)
	}
	boundSchema(s.Items)
	if isMap(s) {
		boundSchema(s.AdditionalProperties)
	}
}

// admits reports whether a value of JSON type typ may match s: a schema
// without a type admits anything, and "integer" admits numbers (whether
// one is whole is the validator's to say).
func admits(s *jsonschema.Schema, typ string) bool {
	if s == nil || (s.Type == "" && s.Types == nil) {
		return true
	}
	ok := func(t string) bool { return t == typ || (typ == "number" && t == "integer") }
	if s.Type != "" {
		return ok(s.Type)
	}
	for _, t := range s.Types {
		if ok(t) {
			return true
		}
	}
	return false
}

// closed reports whether s refuses properties it does not name: what the
// inferred schema of a Go struct says with additionalProperties false.
func closed(s *jsonschema.Schema) bool {
	return s != nil && s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil
}

// isMap reports whether s is an object of arbitrary names to values (a Go
// map), as opposed to a struct's named properties.
func isMap(s *jsonschema.Schema) bool {
	return s.AdditionalProperties != nil && !closed(s)
}

// maxLength, maxItems and maxProperties are s's bounds, or the defaults
// for a value no schema describes.
func maxLength(s *jsonschema.Schema) int {
	if s != nil && s.MaxLength != nil {
		return *s.MaxLength
	}
	return DefaultMaxLength
}

func maxItems(s *jsonschema.Schema) int {
	if s != nil && s.MaxItems != nil {
		return *s.MaxItems
	}
	return DefaultMaxItems
}

func maxProperties(s *jsonschema.Schema) int {
	if s != nil && s.MaxProperties != nil {
		return *s.MaxProperties
	}
	return DefaultMaxProperties
}

func intPtr(n int) *int { return &n }
