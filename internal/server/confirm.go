package server

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// How a call's client can ask a person to confirm it ([confirm]), by what
// the protocol revision and the transport allow:
//
//   - a session on a revision before 2026-07-28 (stdio) that declared
//     form elicitation: elicitation/create, while the call waits;
//   - a request of 2026-07-28 that declares it, on stdio or HTTP: the
//     call answers with an input-required result, and the client calls
//     again with the answer (questions signs what it carries back);
//   - anything else cannot be asked: no elicitation declared, or a
//     request over HTTP on an older revision, where every request stands
//     alone (stateless HTTP) and the server cannot send one of its own.

// confirmInput is the key of the confirmation in an input-required result.
const confirmInput = "confirm"

// confirmForm is the schema of the form a person answers: nothing to fill
// in, only accept or decline.
var confirmForm = json.RawMessage(`{"type":"object","properties":{}}`)

// asking is how the client of req can ask a person; client names it.
func (s *Server) asking(req *mcp.CallToolRequest, client string) *tool.Asking {
	rev := revisionOf(req)
	if rev >= rev20260728 {
		var caps mcp.ClientCapabilities
		if raw, err := json.Marshal(req.Params.GetMeta()[mcp.MetaKeyClientCapabilities]); err != nil || json.Unmarshal(raw, &caps) != nil || !formElicitation(&caps) {
			return &tool.Asking{Unable: "the client did not declare the elicitation capability (form mode)"}
		}
		a := &tool.Asking{Defer: true}
		if req.Params.RequestState != "" || len(req.Params.InputResponses) > 0 {
			a.Answer = s.questions.answer(req.Params.Name, req.Params.Arguments, client, req.Params.RequestState, req.Params.InputResponses)
		}
		return a
	}
	if req.Extra != nil && req.Extra.Header != nil {
		return &tool.Asking{Unable: fmt.Sprintf("over HTTP a client on protocol %s cannot be asked while a call waits (every request stands alone); one on 2026-07-28 can", rev)}
	}
	ss := req.Session
	if ss == nil || ss.InitializeParams() == nil || ss.InitializeParams().Capabilities == nil || !formElicitation(ss.InitializeParams().Capabilities) {
		return &tool.Asking{Unable: "the client did not declare the elicitation capability (form mode)"}
	}
	return &tool.Asking{Ask: func(ctx context.Context, q tool.Question) (tool.Answer, error) {
		res, err := ss.Elicit(ctx, &mcp.ElicitParams{Mode: "form", Message: q.Message(), RequestedSchema: confirmForm})
		if err != nil {
			return tool.Answer{}, err
		}
		return tool.Answer{Action: res.Action}, nil
	}}
}

// formElicitation reports whether caps declare form elicitation: an empty
// elicitation capability means form, as it did before modes existed.
func formElicitation(caps *mcp.ClientCapabilities) bool {
	e := caps.Elicitation
	return e != nil && (e.Form != nil || e.URL == nil)
}

// inputRequired is the answer to a 2026-07-28 call that waits for a
// person: the question, and the signed state the client carries back.
func (s *Server) inputRequired(req *mcp.CallToolRequest, client string, q *tool.Question) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{confirmInput: &mcp.ElicitParams{Mode: "form", Message: q.Message(), RequestedSchema: confirmForm}},
		RequestState:  s.questions.issue(req.Params.Name, req.Params.Arguments, client, q),
	}
}
