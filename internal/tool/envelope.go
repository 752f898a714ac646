package tool

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
)

// Envelope is every tool's structuredContent: the base response of spec 000
// section 3.1 less the call's provenance (tool, tool_version, timestamp,
// duration_ms, host), which goes in the result's _meta (Provenance), plus
// the handle of a payload that went over the output cap. What is left is
// what a model acts on.
type Envelope struct {
	Success     bool            `json:"success" jsonschema:"true when data is valid; false when error says why"`
	Data        json.RawMessage `json:"data,omitempty" jsonschema:"the tool's result; absent on error or when truncated"`
	Error       *ErrorInfo      `json:"error,omitempty" jsonschema:"present when success is false"`
	Truncated   bool            `json:"truncated,omitempty" jsonschema:"true when data was over the output cap: data_preview and handle stand in for it"`
	DataPreview json.RawMessage `json:"data_preview,omitempty" jsonschema:"when truncated: data itself, its arrays cut to their first items (and, if need be, long strings to their first bytes and objects to their first members)"`
	// PreviewCounts replaces truncated_at, a byte offset into the handle
	// that meant something only while the preview was the handle's first
	// bytes.
	PreviewCounts []PreviewCount `json:"preview_counts,omitempty" jsonschema:"when truncated: what data_preview shortened, per path: kept and total, and the handle line where the rest continues"`
	Handle        string         `json:"handle,omitempty" jsonschema:"when truncated: handle of all of data as indented JSON; page it with handle_read by lines, or read the resource hostmcp://handle/{id}"`
	Warnings      []string       `json:"warnings,omitempty" jsonschema:"what was degraded, skipped or approximated"`
}

// envelopeTypeSchema infers the envelope's schema. data and data_preview
// hold any JSON: a json.RawMessage would otherwise be inferred as an array
// of integers (its Go type is []byte).
func envelopeTypeSchema() (*jsonschema.Schema, error) {
	return jsonschema.For[Envelope](&jsonschema.ForOptions{
		TypeSchemas: map[reflect.Type]*jsonschema.Schema{reflect.TypeFor[json.RawMessage](): {}},
	})
}

// envelopeSchema returns the full outputSchema of a tool: the envelope with
// its data property described by the tool's own output type. docs/tools.md
// is written from it and tests check answers against it; what tools/list
// serves is servedOutputSchema.
func envelopeSchema(data *jsonschema.Schema) (*jsonschema.Schema, error) {
	s, err := envelopeTypeSchema()
	if err != nil {
		return nil, fmt.Errorf("inferring envelope schema: %w", err)
	}
	if data.Type != "object" {
		return nil, fmt.Errorf("output must be a struct, not %s", data.Type)
	}
	s.Properties["preview_counts"] = &jsonschema.Schema{Type: "array"}
	s.Properties["data_preview"] = &jsonschema.Schema{Type: "object"}
	d := *data
	d.Description = "the tool's result; absent on error or when truncated"
	loosen(&d)
	s.Properties["data"] = &d
	return s, nil
}

// servedOutputSchema is the outputSchema every tool serves in tools/list.
// tools/list is paid for on every session, and the envelope restated per
// tool with each tool's data fields was two thirds of it (107 KB of 158 KB
// with every toolset). What a client does with an outputSchema is check
// structuredContent against it and act on it, so the schema types what a
// client acts on: success (required), data as an object, the error's code,
// message, recoverable and retry_after_ms, what stands in for data over the
// cap (truncated, handle, data_preview, preview_counts), and warnings.
// error.suggestion and every tool's data fields are described in
// docs/tools.md; with no additionalProperties they, and fields a later
// version adds, still validate.
func servedOutputSchema() *jsonschema.Schema {
	str := func(t string) *jsonschema.Schema { return &jsonschema.Schema{Type: t} }
	return &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"success": str("boolean"),
			"data":    str("object"),
			"error": {
				Type: "object",
				Properties: map[string]*jsonschema.Schema{
					"code": str("string"), "message": str("string"), "recoverable": str("boolean"), "retry_after_ms": str("integer"),
				},
				PropertyOrder: []string{"code", "message", "recoverable", "retry_after_ms"},
				Required:      []string{"code", "message"},
			},
			"truncated":      str("boolean"),
			"data_preview":   str("object"),
			"preview_counts": str("array"),
			"handle":         str("string"),
			"warnings":       str("array"),
		},
		PropertyOrder: []string{"success", "data", "error", "truncated", "data_preview", "preview_counts", "handle", "warnings"},
		Required:      []string{"success"},
	}
}

// loosen drops "required" and "additionalProperties: false" from an output
// data schema: they tell a model nothing about the fields yet make up a
// third of the bytes, and a client validating against the looser schema
// still checks every field's type.
func loosen(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	s.Required = nil
	if s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil {
		s.AdditionalProperties = nil
	}
	for _, p := range s.Properties {
		loosen(p)
	}
	loosen(s.Items)
}
