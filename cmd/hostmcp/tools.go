package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hostmcp/hostmcp/internal/tool"
)

func toolsCmd(args []string, s stdio) int {
	c := newCommon("tools", s)
	asJSON := c.fs.Bool("json", false, "print the tools/list entries as JSON")
	asMarkdown := c.fs.Bool("markdown", false, "print the tool reference as Markdown")
	if err := c.fs.Parse(args); err != nil {
		return 2
	}
	a, ok := c.open(context.Background(), s, quietLogger(s))
	if !ok {
		return 1
	}
	defer a.Close()
	defs := a.Server.Tools()
	switch {
	case *asJSON:
		list := make([]any, len(defs))
		for i, d := range defs {
			list[i] = d.MCPTool()
		}
		b, err := json.MarshalIndent(list, "", "  ")
		if err != nil {
			fmt.Fprintf(s.err, "hostmcp: %v\n", err)
			return 1
		}
		fmt.Fprintln(s.out, string(b))
	case *asMarkdown:
		fmt.Fprint(s.out, string(tool.Markdown(a.Server.Toolsets())))
	default:
		for _, d := range defs {
			fmt.Fprintf(s.out, "%-22s %-12s %s\n", d.Spec.Name, d.Spec.Kind, d.Spec.Description)
		}
	}
	return 0
}
