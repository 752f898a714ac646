package server

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// instructions is sent at initialize: the few things an agent should know
// before its first call, kept short because it is paid for on every session.
const instructions = "hostmcp operates and diagnoses this Linux host. Every result is an envelope: " +
	"check success, read data, act on error.suggestion. Large results come back with a handle; " +
	"page them with handle_read. Paths are absolute or relative to the first root. A string argument is at most 4096 characters unless its schema " +
	"says otherwise. For a slow machine start with perf_info, then sys_snapshot."

func (s *Server) buildMCP() *mcp.Server {
	opts := &mcp.ServerOptions{Instructions: instructions, Logger: s.log, Capabilities: capabilities(len(s.order) > 0)}
	s.roots.listen(opts)
	srv := mcp.NewServer(&mcp.Implementation{Name: "hostmcp", Title: "hostmcp", Version: s.opts.Version}, opts)
	// First, so that they sit innermost: a middleware added later (one that
	// shapes results for a protocol revision) then sees the lists they make.
	srv.AddReceivingMiddleware(s.linkViews, s.listResourcesMiddleware)
	srv.AddReceivingMiddleware(clipErrors, shapeForRevision, checkLogLevel)
	srv.AddSendingMiddleware(shapeNotifications)
	s.registerTools(srv)
	addPrompts(srv)
	s.addResources(srv)
	s.addView(srv)
	srv.AddReceivingMiddleware(encodeCallResults) // outside every middleware that shapes a result
	srv.AddReceivingMiddleware(s.awaitTools)
	srv.AddReceivingMiddleware(newIdleTrim().middleware) // last, so outermost: it sees every request
	return srv
}

// mcpHandler adapts a tool to the SDK's low-level handler: the SDK's typed
// AddTool would put the tool's own output in structuredContent, where we want
// the envelope, and would answer bad arguments without our error codes.
func (s *Server) mcpHandler(d *tool.Def) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		client := clientID(req, s.session)
		inv := tool.Invocation{Def: d, Args: req.Params.Arguments, Session: sessionName(req.Session, s.session), ClientRoots: s.roots.forSession(req.Session),
			Client: client, Asking: s.asking(req, client)}
		if token := req.Params.GetProgressToken(); token != nil && req.Session != nil {
			ss := req.Session
			inv.Progress = func(ctx context.Context, progress, total float64, message string) {
				// A lost progress notification is not worth failing the call.
				_ = ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token, Progress: progress, Total: total, Message: message,
				})
			}
		}
		res := s.run(ctx, inv)
		if res.Ask != nil {
			return s.inputRequired(req, client, res.Ask), nil
		}
		return &mcp.CallToolResult{
			// The provenance is for the client, not the model: _meta,
			// which every protocol revision allows and clients do not
			// show the model.
			Meta:              mcp.Meta{tool.ProvenanceKey: res.Provenance},
			Content:           toolContent(res),
			StructuredContent: jsonRaw(res.JSON),
			IsError:           res.Err != nil,
		}, nil
	}
}

// sessionName names the caller in call records: the HTTP session id when
// there is one, else this process's stdio session, with the client's name.
func sessionName(ss *mcp.ServerSession, fallback string) string {
	id := fallback
	if ss == nil {
		return id
	}
	if sid := ss.ID(); sid != "" {
		id = sid
	}
	if p := ss.InitializeParams(); p != nil && p.ClientInfo != nil && p.ClientInfo.Name != "" {
		return fmt.Sprintf("%s/%s", p.ClientInfo.Name, id)
	}
	return id
}

// mcpTools marshals the tools' schemas, on every CPU: it is most of what
// stands between start-up and the initialize answer (tens of milliseconds
// with every toolset), and each tool's is independent of the others'.
func mcpTools(defs []*tool.Def) []*mcp.Tool {
	out := make([]*mcp.Tool, len(defs))
	workers := min(runtime.GOMAXPROCS(0), len(defs))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(defs); i += workers {
				out[i] = defs[i].MCPTool()
			}
		})
	}
	wg.Wait()
	return out
}
