package main

import (
	"testing"

	"github.com/hostmcp/hostmcp/internal/cli"
)

// Every command the table describes (and so help, completion and the man
// page show) has a handler.
func TestEveryCommandHasAHandler(t *testing.T) {
	for _, c := range cli.Commands() {
		if handler(c.Name) == nil {
			t.Errorf("command %q has no handler", c.Name)
		}
	}
}
