package tool

import "github.com/modelcontextprotocol/go-sdk/mcp"

// MCPTool is the definition as served in tools/list.
func (d *Def) MCPTool() *mcp.Tool {
	return &mcp.Tool{
		Name:         d.Spec.Name,
		Title:        d.Spec.Title,
		Description:  d.Spec.Description,
		InputSchema:  d.InputSchema,
		OutputSchema: d.OutputSchema,
		Annotations:  annotations(d.Spec.Title, d.Spec.Kind, d.Spec.Idempotent),
	}
}
