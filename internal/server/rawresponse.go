package server

import (
	"context"
	"io"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// rawResponseTransport is the SDK's stdio transport whose connection
// writes a successful response itself: the SDK's writer encodes the whole
// JSON-RPC message again, and encoding/json compacts the result (already
// compact JSON the SDK made) a further time, byte by byte. The line
// written is the same: {"jsonrpc":"2.0","id":...,"result":...} and a
// newline, in one Write; a tools/call result that encoded itself for this
// connection (selfencoded.go) comes as a token, swapped back for its JSON,
// around which the line is made in place. Everything else (requests and
// notifications the server sends, error responses, a response with no
// result) goes through the SDK's writer unchanged. No batch ever reaches the SDK (the frame
// guard refuses them), so no response completes one.
type rawResponseTransport struct {
	inner *mcp.IOTransport
	out   io.Writer // the lockedWriter the SDK's writer writes to
	// encoded holds the results that wrote their own JSON (selfencoded.go)
	// until the connection writes them.
	encoded *encodedResults
}

func (t *rawResponseTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &rawResponseConn{Connection: c, out: t.out, encoded: t.encoded}, nil
}

type rawResponseConn struct {
	mcp.Connection
	out     io.Writer
	encoded *encodedResults
}

func (c *rawResponseConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || resp.Error != nil || len(resp.Result) == 0 || !resp.ID.IsValid() {
		return c.Connection.Write(ctx, msg)
	}
	held, self := c.encoded.take(resp.Result) // before anything can fail: nothing is held past this write
	if err := ctx.Err(); err != nil {
		return err // as the SDK's writer: no write on a done context
	}
	id, err := tool.MarshalJSON(resp.ID.Raw())
	if err != nil {
		if self {
			resp = &jsonrpc.Response{ID: resp.ID, Result: held.json()}
		}
		return c.Connection.Write(ctx, resp)
	}
	var line []byte
	if self {
		line = held.line(id)
	} else {
		line = responseLine(id, resp.Result)
	}
	_, err = c.out.Write(line)
	return err
}

// Close lets go of the results never written: the SDK closes the
// connection once no call is left to answer.
func (c *rawResponseConn) Close() error {
	if c.encoded != nil {
		c.encoded.release()
	}
	return c.Connection.Close()
}

// The JSON-RPC response line around a result.
const (
	responseHead = `{"jsonrpc":"2.0","id":`
	resultMember = `,"result":`
	responseTail = "}\n"
)

// responseLine is the response line for id around result.
func responseLine(id, result []byte) []byte {
	line := make([]byte, 0, len(responseHead)+len(id)+len(resultMember)+len(result)+len(responseTail))
	line = append(line, responseHead...)
	line = append(line, id...)
	line = append(line, resultMember...)
	line = append(line, result...)
	return append(line, responseTail...)
}
