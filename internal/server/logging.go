//lint:file-ignore SA1019 logging is deprecated by SEP-2577 but clients of older revisions still call logging/setLevel (see checkLogLevel)

package server

import (
	"context"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// capabilities are what hostmcp declares beyond what the SDK adds for the
// prompts and resources it serves. Tools are declared here, without
// listChanged, because they are registered behind the initialize answer
// (registerTools) and never change once served. Logging is not among them, which
// the SDK would otherwise declare by default: hostmcp sends no log messages.
// What a message could tell the agent about a call is already in the call's
// envelope (warnings, error, suggestion), which the model reads; the
// server's own log is the operator's (stderr), and over HTTP it speaks of
// other clients' calls. Logging is deprecated in 2026-07-28 (SEP-2577), and a
// capability declared but never used has clients set a level for nothing.
func capabilities(hasTools bool) *mcp.ServerCapabilities {
	if !hasTools {
		return &mcp.ServerCapabilities{}
	}
	return &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}
}

// logLevels are the levels of logging/setLevel (RFC 5424's severities).
var logLevels = []mcp.LoggingLevel{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// checkLogLevel is a receiving middleware refusing a logging/setLevel of a
// level the protocol does not name, with -32602 (invalid params); the SDK
// would take any string. A valid level is still accepted, for clients that
// set one whatever the server declares; nothing is sent at any level.
func checkLogLevel(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if p, ok := req.GetParams().(*mcp.SetLoggingLevelParams); ok && p != nil && !slices.Contains(logLevels, p.Level) {
			return nil, &jsonrpc.Error{
				Code:    jsonrpc.CodeInvalidParams,
				Message: fmt.Sprintf("unknown logging level %q: use one of debug, info, notice, warning, error, critical, alert, emergency", tool.Clip(string(p.Level))),
			}
		}
		return next(ctx, method, req)
	}
}
