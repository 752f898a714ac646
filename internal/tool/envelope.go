package tool

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
)

// Envelope is every tool's structuredContent: the base response of spec 000
// section 3.1, plus the handle of a payload that went over the output cap.
type Envelope struct {
	Success     bool            `json:"success" jsonschema:"true when data is valid; false when error says why"`
	Tool        string          `json:"tool" jsonschema:"name of the tool that answered"`
	ToolVersion string          `json:"tool_version" jsonschema:"hostmcp version that answered"`
	Timestamp   string          `json:"timestamp" jsonschema:"when the call started, RFC 3339 UTC"`
	DurationMS  int64           `json:"duration_ms" jsonschema:"wall time of the call in milliseconds"`
	Host        string          `json:"host" jsonschema:"hostname of the machine that answered"`
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

// envelopeSchema returns the outputSchema of a tool: the envelope with its
// data property described by the tool's own output type.
func envelopeSchema(data *jsonschema.Schema) (*jsonschema.Schema, error) {
	s, err := envelopeTypeSchema()
	if err != nil {
		return nil, fmt.Errorf("inferring envelope schema: %w", err)
	}
	// The envelope repeats in every tool's outputSchema, and tools/list is
	// paid for in tokens on every session: its fields are documented once, in
	// docs/tools.md, and served without descriptions.
	stripDescriptions(s)
	// Likewise preview_counts' items, which only truncated answers carry.
	// data_preview may be any JSON, but not as the schema true: the
	// TypeScript SDK refuses a property schema that is not an object.
	s.Properties["preview_counts"] = &jsonschema.Schema{Type: "array"}
	s.Properties["data_preview"] = &jsonschema.Schema{Description: "data, cut to fit"}
	d := *data
	d.Description = "the tool's result; absent on error or when truncated"
	loosen(&d)
	s.Properties["data"] = &d
	return s, nil
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

func stripDescriptions(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	s.Description = ""
	for _, p := range s.Properties {
		stripDescriptions(p)
	}
	stripDescriptions(s.Items)
}
