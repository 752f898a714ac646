package tool

import (
	"encoding/json"
	"fmt"
	"maps"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPTool is the definition as served in tools/list.
func (d *Def) MCPTool() *mcp.Tool {
	return &mcp.Tool{
		Name:         d.Spec.Name,
		Title:        d.Spec.Title,
		Description:  d.Spec.Description,
		InputSchema:  d.servedInputJSON(),
		OutputSchema: servedOutputJSON(),
		Annotations:  d.annotations(),
	}
}

// annotations are the kind's, with openWorldHint set for a tool that
// reaches beyond this host.
func (d *Def) annotations() *mcp.ToolAnnotations {
	a := annotations(d.Spec.Title, d.Spec.Kind, d.Spec.Idempotent)
	if d.Spec.OpenWorld {
		yes := true
		a.OpenWorldHint = &yes
	}
	return a
}

// servedOutputJSON is servedOutputSchema as JSON, served for every tool:
// it is the same for all of them. It is written out here rather than
// marshalled at every start-up, which ran jsonschema's and encoding/json's
// marshalling code for it alone (TestServedOutputJSON keeps it equal).
// The bytes are shared, never written to.
var servedOutputJSON = sync.OnceValue(func() json.RawMessage { return json.RawMessage(servedOutputText) })

const servedOutputText = `{"type":"object","properties":{` +
	`"success":{"type":"boolean"},"data":{"type":"object"},` +
	`"error":{"type":"object","properties":{"code":{"type":"string"},"message":{"type":"string"},"recoverable":{"type":"boolean"},"retry_after_ms":{"type":"integer"}},"required":["code","message"]},` +
	`"truncated":{"type":"boolean"},"data_preview":{"type":"object"},"preview_counts":{"type":"array"},"handle":{"type":"string"},"warnings":{"type":"array"}},` +
	`"required":["success"]}`

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
// and docs/tools.md lists the aliases. The default string bound
// (DefaultMaxLength) is left out too: 18 bytes on each of some forty
// arguments, which the server's instructions state once instead (and the
// framework checks whatever is served); a tool's own bound stays.
func (d *Def) servedInput() *jsonschema.Schema {
	c := *d.InputSchema()
	c.AdditionalProperties = nil
	c.Properties = maps.Clone(c.Properties)
	for _, a := range d.aliases {
		delete(c.Properties, a.name)
	}
	for name, p := range c.Properties {
		c.Properties[name] = withoutDefaultBound(p)
	}
	return &c
}

// withoutDefaultBound is p, or a copy of it without a maxLength equal to
// DefaultMaxLength, on the property and on the items of a list.
func withoutDefaultBound(p *jsonschema.Schema) *jsonschema.Schema {
	if p == nil {
		return nil
	}
	isDefault := p.MaxLength != nil && *p.MaxLength == DefaultMaxLength
	items := withoutDefaultBound(p.Items)
	if !isDefault && items == p.Items {
		return p
	}
	c := *p
	if isDefault {
		c.MaxLength = nil
	}
	c.Items = items
	return &c
}
