package server

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/view"
)

// addView serves the MCP App page (package view) as a resource, unless
// [views] mcp_apps is off. Every client may read it: it is the same static
// page for all and holds no data. It is listed, and tools point to it, only
// for clients that render apps (linkViews).
func (s *Server) addView(srv *mcp.Server) {
	if s.opts.Config.Views.MCPApps == config.ViewsOff {
		return
	}
	// The page (28 KB, its script and style hashed into its policy) is
	// built at its first read: most sessions never read it, and an idle
	// server need not hold it.
	page := sync.OnceValue(func() string { return string(view.HTML()) })
	srv.AddResource(viewResource(), func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: view.URI, MIMEType: view.MIMEType, Text: page(), Meta: view.ResourceMeta()}}}, nil
	})
}

func viewResource() *mcp.Resource {
	return &mcp.Resource{
		URI:         view.URI,
		Name:        "profile_view",
		Title:       "Profile and latency view",
		Description: "An interactive flame graph and latency histogram view of the profiling and tracing tools' results, for clients that render MCP Apps.",
		MIMEType:    view.MIMEType,
		Meta:        view.ResourceMeta(),
	}
}

// linkViews is a receiving middleware that shows the MCP App to a client
// that declared the extension for its page's MIME type ([views] mcp_apps
// "auto"), to every client ("always") or to none ("off"): each tool that has
// a view gets the extension's _meta pointing to it in tools/list, and the
// page is listed first in resources/list. Any other client gets the lists
// unchanged, and every client the same tool results, with their text and
// resource links, from which the page draws.
//
// Revisions before 2025-06-18 have neither _meta on tools nor structured
// content: a client on one gets no view, whatever it declares.
func (s *Server) linkViews(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil || !s.showsViews(req) {
			return res, err
		}
		switch r := res.(type) {
		case *mcp.ListToolsResult:
			c := *r
			c.Tools = make([]*mcp.Tool, len(r.Tools))
			for i, t := range r.Tools {
				c.Tools[i] = t
				if d := s.tools[t.Name]; d != nil && d.Spec.View != "" {
					linked := *t // the SDK's own, shared by every session
					linked.Meta = withView(t.Meta)
					c.Tools[i] = &linked
				}
			}
			return &c, nil
		case *mcp.ListResourcesResult: // made for this request by listResourcesMiddleware
			r.Resources = append([]*mcp.Resource{viewResource()}, r.Resources...)
		}
		return res, err
	}
}

// showsViews reports whether the client behind req is shown the view.
func (s *Server) showsViews(req mcp.Request) bool {
	switch s.opts.Config.Views.MCPApps {
	case config.ViewsOff:
		return false
	case config.ViewsAlways:
		return revisionOf(req) >= rev20250618
	}
	return revisionOf(req) >= rev20250618 && rendersApps(req)
}

// withView is a tool's _meta with the view's keys added.
func withView(m mcp.Meta) mcp.Meta {
	out := mcp.Meta{}
	for k, v := range m {
		out[k] = v
	}
	for k, v := range view.ToolMeta() {
		out[k] = v
	}
	return out
}

// rendersApps reports whether the client behind req declared the MCP Apps
// extension with the page's MIME type, at initialize or (from 2026-07-28)
// in the request's own _meta. Over stateless HTTP before 2026-07-28 no
// request carries the client's capabilities, and the answer is no.
func rendersApps(req mcp.Request) bool {
	r, ok := req.(interface {
		ClientCapabilities() *mcp.ClientCapabilities
	})
	if !ok {
		return false
	}
	caps := r.ClientCapabilities()
	if caps == nil || caps.Extensions == nil {
		return false
	}
	settings, ok := caps.Extensions[view.Extension]
	if !ok {
		return false
	}
	// Decoded from the wire it is a map of any; built in-process, any
	// type at all: read it through JSON either way.
	b, err := json.Marshal(settings)
	if err != nil {
		return false
	}
	var ext struct {
		MIMETypes []string `json:"mimeTypes"`
	}
	return json.Unmarshal(b, &ext) == nil && slices.Contains(ext.MIMETypes, view.MIMEType)
}
