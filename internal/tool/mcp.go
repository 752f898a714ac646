package tool

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPTool is the definition as served in tools/list.
func (d *Def) MCPTool() *mcp.Tool {
	return &mcp.Tool{
		Name:         d.Spec.Name,
		Title:        d.Spec.Title,
		Description:  d.Spec.Description,
		InputSchema:  marshalled(d.Spec.Name, d.servedInput()),
		OutputSchema: marshalled(d.Spec.Name, servedOutputSchema()),
		Annotations:  annotations(d.Spec.Title, d.Spec.Kind, d.Spec.Idempotent),
	}
}

// marshalled is a finished schema as JSON, marshalled once. Handed the
// schema itself, the SDK would marshal every tool's schemas again on each
// tools/list: 16 ms and 5 MB of garbage with every toolset served, against
// well under a millisecond for copying the bytes.
func marshalled(tool string, s *jsonschema.Schema) json.RawMessage {
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("tool %q: marshalling its schema: %v", tool, err)) // a programming error
	}
	return b
}

// servedInput is an input schema as tools/list serves it, which is what a
// model is shown: without the top-level additionalProperties false, 28 bytes
// of every tool that tell a model nothing it acts on and that Gemini's
// function declarations do not have, and without the aliases (WithAlias,
// WithOpposite), which are there for a model that guesses a name it knows
// from elsewhere: one shown both names may send both. Unknown arguments are
// still refused, by name, with the list of those the tool takes (args.go),
// and docs/tools.md lists the aliases.
func (d *Def) servedInput() *jsonschema.Schema {
	c := *d.InputSchema
	c.AdditionalProperties = nil
	if len(d.aliases) > 0 {
		c.Properties = maps.Clone(c.Properties)
		for _, a := range d.aliases {
			delete(c.Properties, a.name)
		}
	}
	return &c
}
