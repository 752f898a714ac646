package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/hostmcp/hostmcp/internal/app"
	"github.com/hostmcp/hostmcp/internal/cli"
)

// callCmd runs one tool in-process and prints its envelope; it exits 1 when
// the result is an error, so scripts can branch on it.
func callCmd(p *cli.Parsed, s stdio) int {
	raw := json.RawMessage("{}")
	if len(p.Args) == 2 {
		raw = json.RawMessage(p.Args[1])
	}
	return withApp(p, s, func(ctx context.Context, a *app.App) int {
		res, err := a.Server.Call(ctx, p.Args[0], raw)
		if err != nil {
			fmt.Fprintf(s.err, "hostmcp: %v\n", err)
			return 2
		}
		var pretty bytes.Buffer
		_ = json.Indent(&pretty, res.JSON, "", "  ")
		fmt.Fprintln(s.out, pretty.String())
		if res.Err != nil {
			return 1
		}
		return 0
	})
}
