package tool

import (
	"context"
	"encoding/json"
	"errors"
)

// Caller runs a served tool by name in-process, through the same runner,
// audit and metrics as a client's call (server.Server is one). A tool whose
// work is other tools' (the system_health flow) reaches it through its
// Call, as a go-sdk handler reaches its session through the request: the
// server puts itself into every invocation, so nothing is wired late.
type Caller interface {
	Call(ctx context.Context, name string, args json.RawMessage) (Result, error)
}

// Tools is the Caller of the served tools, for a handler that calls
// others. A caller that can tell which tools are served (server.Server
// can) also has Serves(name) bool. With no Caller in the invocation (a
// toolset's own tests, which run one tool through a bare Runner) it is one
// that refuses every call.
func (c *Call) Tools() Caller {
	if c == nil || c.tools == nil {
		return noTools{}
	}
	return c.tools
}

// noTools is the Caller of a call run outside a server: there are no
// other tools to call.
type noTools struct{}

func (noTools) Call(context.Context, string, json.RawMessage) (Result, error) {
	return Result{}, errors.New("no served tools to call: the tool runs outside a server")
}

func (noTools) Serves(string) bool { return false }
