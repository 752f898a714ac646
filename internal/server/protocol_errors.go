package server

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// maxProtocolMessage is the longest protocol error message answered whole.
// The SDK's are a line; a longer one quotes the request.
const maxProtocolMessage = 1 << 10

// clipErrors bounds the message of every protocol error the server answers
// with, as tool errors are: the SDK's own quote the request whole ("unknown
// tool %q" echoed a 3 MB name). One over maxProtocolMessage keeps its first
// tool.ClipBytes and its length.
func clipErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err == nil || len(err.Error()) <= maxProtocolMessage {
			return res, err
		}
		var we *jsonrpc.Error
		if errors.As(err, &we) {
			clipped := *we
			clipped.Message, clipped.Data = tool.Clip(we.Message), nil
			return res, &clipped
		}
		return res, errors.New(tool.Clip(err.Error()))
	}
}
