package server

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// registerTools adds the served tools to srv in the background, and
// awaitTools holds every request but initialize and ping until they are
// all added. Marshalling every tool's schemas, and the SDK's check of each
// (it decodes them again), took most of the time between exec and the
// initialize answer with every toolset; a client's first tools/list comes
// after that answer, by which time the work is done or under way on the
// other CPU. Nothing is skipped: a client's first tools/list sees every
// tool, and a definition the SDK refuses still stops the process.
//
// The tools capability is declared whatever the registration has reached
// (capabilities), without listChanged: the list never changes once
// served, so the registration sends no tools/list_changed either.
func (s *Server) registerTools(srv *mcp.Server) {
	s.toolsReady = make(chan struct{})
	go func() {
		defer close(s.toolsReady)
		for i, t := range mcpTools(s.order) {
			srv.AddTool(t, s.mcpHandler(s.order[i]))
		}
	}()
}

// awaitTools is the outermost receiving middleware: see registerTools.
// Notifications pass too (a cancellation must never wait), and the wait
// ends with the request's context.
func (s *Server) awaitTools(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "initialize" && method != "ping" && !strings.HasPrefix(method, "notifications/") {
			select {
			case <-s.toolsReady:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		return next(ctx, method, req)
	}
}

// ToolsReady is closed once every served tool is registered, which ends
// start-up's work: what it allocated and no longer needs can then be given
// back (app.ReturnStartupMemory).
func (s *Server) ToolsReady() <-chan struct{} { return s.toolsReady }
