package main

import (
	"encoding/json"
	"fmt"

	"github.com/hostmcp/hostmcp/internal/app"
	"github.com/hostmcp/hostmcp/internal/cli"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// toolsCmd lists the served tools; it runs none, so it opens nothing a
// call needs (see app.ToolList).
func toolsCmd(p *cli.Parsed, s stdio) int {
	cfg, err := loadConfig(p)
	if err != nil {
		fmt.Fprintf(s.err, "hostmcp: %v\n", err)
		return 1
	}
	srv, err := app.ToolList(cfg, buildInfo().Short(), newLogger(s, cfg))
	if err != nil {
		fmt.Fprintf(s.err, "hostmcp: %v\n", err)
		return 1
	}
	defs := srv.Tools()
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
		fmt.Fprint(s.out, string(tool.Markdown(srv.Toolsets())))
	default:
		for _, d := range defs {
			fmt.Fprintf(s.out, "%-22s %-12s %s\n", d.Spec.Name, d.Spec.Kind, d.Spec.Description)
		}
	}
	return 0
}
