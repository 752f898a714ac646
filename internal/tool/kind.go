package tool

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Kind says what a tool does to the host. It is required on every tool so that
// no tool can ship with the SDK's permissive annotation defaults (which claim
// destructive and open-world when left unset).
type Kind int

const (
	// ReadOnly tools observe and never change the host.
	ReadOnly Kind = iota + 1
	// Mutating tools change the host additively (write a file, start a session).
	Mutating
	// Destructive tools may remove or overwrite something (delete, kill).
	Destructive
)

// String names the kind as it appears in docs/tools.md.
func (k Kind) String() string {
	switch k {
	case ReadOnly:
		return "read-only"
	case Mutating:
		return "mutating"
	case Destructive:
		return "destructive"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// annotations derives all five MCP annotations from the kind. Every hint is
// set explicitly: clients treat a missing destructiveHint or openWorldHint as
// true. openWorldHint is false: only a tool whose Spec says OpenWorld (see
// Def.annotations) reaches outside this host.
func annotations(title string, k Kind, idempotent bool) *mcp.ToolAnnotations {
	no := false
	yes := true
	a := &mcp.ToolAnnotations{Title: title, OpenWorldHint: &no}
	switch k {
	case ReadOnly:
		a.ReadOnlyHint = true
		a.DestructiveHint = &no
		a.IdempotentHint = true
	case Mutating:
		a.DestructiveHint = &no
		a.IdempotentHint = idempotent
	case Destructive:
		a.DestructiveHint = &yes
		a.IdempotentHint = idempotent
	}
	return a
}
