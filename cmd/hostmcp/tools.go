package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hostmcp/hostmcp/internal/cli"
	"github.com/hostmcp/hostmcp/internal/tool"
)

func toolsCmd(p *cli.Parsed, s stdio) int {
	a, ok := open(context.Background(), p, s)
	if !ok {
		return 1
	}
	defer a.Close()
	defs := a.Server.Tools()
	switch {
	case p.Bool("json"):
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
	case p.Bool("markdown"):
		fmt.Fprint(s.out, string(tool.Markdown(a.Server.Toolsets())))
	default:
		for _, d := range defs {
			fmt.Fprintf(s.out, "%-22s %-12s %s\n", d.Spec.Name, d.Spec.Kind, d.Spec.Description)
		}
	}
	return 0
}
