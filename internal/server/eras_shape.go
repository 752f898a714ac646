package server

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// legacyResult cuts res down to what revision rev (older than 2026-07-28)
// defines. Results the SDK shares between sessions (its tool, prompt and
// resource lists, the server's identity) are copied, never changed in place.
//
// The list results become types of our own: the SDK's always carry ttlMs
// and cacheScope, 2026-07-28 fields it marshals even when zero. A fresh
// CallToolResult, GetPromptResult or ReadResourceResult has no resultType.
func legacyResult(rev string, res mcp.Result) mcp.Result {
	switch r := res.(type) {
	case *mcp.InitializeResult:
		c := *r
		c.ServerInfo = implementationFor(rev, r.ServerInfo)
		return &c
	case *mcp.ListToolsResult:
		out := &toolList{ResultBase: mcp.ResultBase{Meta: r.Meta}, NextCursor: r.NextCursor, Tools: make([]*mcp.Tool, len(r.Tools))}
		for i, t := range r.Tools {
			out.Tools[i] = toolFor(rev, t)
		}
		return out
	case *mcp.CallToolResult:
		out := &mcp.CallToolResult{Meta: r.Meta, Content: contentFor(rev, r.Content), IsError: r.IsError}
		if rev >= rev20250618 {
			// Before it, the text content alone carries the envelope.
			out.StructuredContent = r.StructuredContent
		}
		return out
	case *mcp.ListPromptsResult:
		out := &promptList{ResultBase: mcp.ResultBase{Meta: r.Meta}, NextCursor: r.NextCursor, Prompts: make([]*mcp.Prompt, len(r.Prompts))}
		for i, p := range r.Prompts {
			out.Prompts[i] = promptFor(rev, p)
		}
		return out
	case *mcp.GetPromptResult:
		return &mcp.GetPromptResult{Meta: r.Meta, Description: r.Description, Messages: r.Messages}
	case *mcp.ListResourcesResult:
		out := &resourceList{ResultBase: mcp.ResultBase{Meta: r.Meta}, NextCursor: r.NextCursor, Resources: make([]*mcp.Resource, len(r.Resources))}
		for i, x := range r.Resources {
			c := *x
			c.Meta, c.Title, c.Icons = metaFor(rev, x.Meta), titleFor(rev, x.Title), iconsFor(rev, x.Icons)
			out.Resources[i] = &c
		}
		return out
	case *mcp.ListResourceTemplatesResult:
		out := &templateList{ResultBase: mcp.ResultBase{Meta: r.Meta}, NextCursor: r.NextCursor, ResourceTemplates: make([]*mcp.ResourceTemplate, len(r.ResourceTemplates))}
		for i, x := range r.ResourceTemplates {
			c := *x
			c.Meta, c.Title, c.Icons = metaFor(rev, x.Meta), titleFor(rev, x.Title), iconsFor(rev, x.Icons)
			out.ResourceTemplates[i] = &c
		}
		return out
	case *mcp.ReadResourceResult:
		return &resourceRead{ResultBase: mcp.ResultBase{Meta: r.Meta}, Contents: r.Contents}
	}
	return res
}

// The list and read results as revisions before 2026-07-28 define them.
type (
	toolList struct {
		mcp.ResultBase
		NextCursor string      `json:"nextCursor,omitempty"`
		Tools      []*mcp.Tool `json:"tools"`
	}
	promptList struct {
		mcp.ResultBase
		NextCursor string        `json:"nextCursor,omitempty"`
		Prompts    []*mcp.Prompt `json:"prompts"`
	}
	resourceList struct {
		mcp.ResultBase
		NextCursor string          `json:"nextCursor,omitempty"`
		Resources  []*mcp.Resource `json:"resources"`
	}
	templateList struct {
		mcp.ResultBase
		NextCursor        string                  `json:"nextCursor,omitempty"`
		ResourceTemplates []*mcp.ResourceTemplate `json:"resourceTemplates"`
	}
	resourceRead struct {
		mcp.ResultBase
		Contents []*mcp.ResourceContents `json:"contents"`
	}
)

func toolFor(rev string, t *mcp.Tool) *mcp.Tool {
	c := *t
	c.Meta, c.Title, c.Icons = metaFor(rev, t.Meta), titleFor(rev, t.Title), iconsFor(rev, t.Icons)
	if rev < rev20250618 {
		c.OutputSchema = nil
	}
	if rev < rev20250326 {
		c.Annotations = nil
	}
	return &c
}

func promptFor(rev string, p *mcp.Prompt) *mcp.Prompt {
	c := *p
	c.Meta, c.Title, c.Icons = metaFor(rev, p.Meta), titleFor(rev, p.Title), iconsFor(rev, p.Icons)
	if rev < rev20250618 && len(p.Arguments) > 0 {
		c.Arguments = make([]*mcp.PromptArgument, len(p.Arguments))
		for i, a := range p.Arguments {
			ac := *a
			ac.Title = ""
			c.Arguments[i] = &ac
		}
	}
	return &c
}

func implementationFor(rev string, i *mcp.Implementation) *mcp.Implementation {
	if i == nil {
		return nil
	}
	c := *i
	c.Title, c.Icons = titleFor(rev, i.Title), iconsFor(rev, i.Icons)
	if rev < rev20251125 {
		c.Description, c.WebsiteURL = "", ""
	}
	return &c
}

// contentFor keeps the content items rev defines: audio came in 2025-03-26,
// resource_link in 2025-06-18. Text, images and embedded resources are in
// every revision, and the envelope is always the text item.
func contentFor(rev string, in []mcp.Content) []mcp.Content {
	out := make([]mcp.Content, 0, len(in))
	for _, c := range in {
		switch c.(type) {
		case *mcp.AudioContent:
			if rev < rev20250326 {
				continue
			}
		case *mcp.ResourceLink:
			if rev < rev20250618 {
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

func titleFor(rev, title string) string {
	if rev < rev20250618 {
		return ""
	}
	return title
}

func metaFor(rev string, m mcp.Meta) mcp.Meta {
	if rev < rev20250618 {
		return nil
	}
	return m
}

func iconsFor(rev string, icons []mcp.Icon) []mcp.Icon {
	if rev < rev20251125 {
		return nil
	}
	return icons
}
