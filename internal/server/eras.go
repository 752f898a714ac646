package server

import (
	"context"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The protocol revisions hostmcp serves on one endpoint, and what each adds
// to what a server may send. A client gets what the revision it negotiated
// defines and nothing newer (DESIGN.md section 2): an old client that
// validates strictly, or shows every field to its model, must not meet a
// field its revision never had.
const (
	rev20241105 = "2024-11-05" // tools are a name, a description and an input schema
	rev20250326 = "2025-03-26" // tool annotations, audio content, a progress message
	rev20250618 = "2025-06-18" // titles, outputSchema and structuredContent, resource_link, _meta on tools, prompts and resources
	rev20251125 = "2025-11-25" // icons; a server's description and website
	rev20260728 = "2026-07-28" // requests stand alone (SEP-2575); resultType; ttlMs and cacheScope on list results
)

// shapeForRevision is a receiving middleware that cuts each result down to
// what the request's revision defines. The SDK (v1.8) sends every field of
// its newest revision whatever was negotiated, except resultType; and even
// that it sends to a client that asked for 2026-07-28 through initialize
// and was answered 2025-11-25. A 2026-07-28 request passes untouched.
func shapeForRevision(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || res == nil {
			return res, err
		}
		rev := revisionOf(req)
		if init, ok := res.(*mcp.InitializeResult); ok {
			rev = init.ProtocolVersion // the session has no revision until this answer
		}
		if rev >= rev20260728 {
			return res, nil
		}
		return legacyResult(rev, res), nil
	}
}

// shapeNotifications is the sending side of shapeForRevision: a progress
// notification carries a message only from 2025-03-26 on.
func shapeNotifications(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		p, ok := req.GetParams().(*mcp.ProgressNotificationParams)
		if !ok || p == nil || p.Message == "" || sessionRevision(req) >= rev20250326 {
			return next(ctx, method, req)
		}
		ss, _ := req.GetSession().(*mcp.ServerSession)
		trimmed := *p
		trimmed.Message = ""
		return next(ctx, method, &mcp.ServerRequest[*mcp.ProgressNotificationParams]{Session: ss, Params: &trimmed})
	}
}

// revisionOf returns the protocol revision a request is served under. A
// 2026-07-28 request names its revision in its _meta, as the SDK reads it;
// otherwise the session's revision was agreed at initialize.
func revisionOf(req mcp.Request) string {
	if v := metaRevision(req); v >= rev20260728 {
		return v
	}
	return sessionRevision(req)
}

// metaRevision is the revision a request's _meta names, if any.
func metaRevision(req mcp.Request) string {
	p := req.GetParams()
	if p == nil {
		return ""
	}
	if v := reflect.ValueOf(p); v.Kind() == reflect.Pointer && v.IsNil() {
		return "" // a request without params: no _meta
	}
	v, _ := p.GetMeta()[mcp.MetaKeyProtocolVersion].(string)
	return v
}

// sessionRevision is the revision a session agreed at initialize. The SDK
// keeps the version the client asked for, not the one it answered, so the
// answer is worked out again here as the SDK works it out: the version
// asked when served, else the newest served through initialize. Over
// stateless HTTP each request stands in for the session and names its
// revision in the Mcp-Protocol-Version header; without the header the
// transport spec says to assume 2025-03-26. A session of 2026-07-28 reads
// as 2025-11-25 here, the SDK keeping no trace of how it began: its
// requests carry their revision (revisionOf), and notifications only ask
// whether the session is older than 2025-03-26.
func sessionRevision(req mcp.Request) string {
	asked := ""
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
		if p := ss.InitializeParams(); p != nil {
			asked = p.ProtocolVersion
		}
	}
	if asked == "" {
		if ex := req.GetExtra(); ex != nil && ex.Header != nil {
			return rev20250326
		}
	}
	return negotiated(asked)
}

// negotiated is the revision initialize answers when asked for asked.
func negotiated(asked string) string {
	newest := ""
	for _, v := range mcp.SupportedProtocolVersions() { // newest first
		if v >= rev20260728 {
			continue // not served through initialize
		}
		if v == asked {
			return v
		}
		if newest == "" {
			newest = v
		}
	}
	return newest
}
