package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/signal"
	"syscall"
)

// callCmd runs one tool in-process and prints its envelope; it exits 1 when
// the result is an error, so scripts can branch on it.
func callCmd(args []string, s stdio) int {
	c := newCommon("call", s)
	if err := c.fs.Parse(args); err != nil {
		return 2
	}
	pos := c.fs.Args()
	if len(pos) < 1 || len(pos) > 2 {
		fmt.Fprintln(s.err, "usage: hostmcp call [flags] TOOL [JSON-ARGUMENTS]")
		return 2
	}
	raw := json.RawMessage("{}")
	if len(pos) == 2 {
		raw = json.RawMessage(pos[1])
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	a, ok := c.open(ctx, s, quietLogger(s))
	if !ok {
		return 1
	}
	defer a.Close()
	res, err := a.Server.Call(ctx, pos[0], raw)
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
}
