package server

import (
	"context"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// maxListedResources bounds resources/list: the newest handles and
// artifacts, together, up to this many. Older ones stay readable by URI
// until they expire.
const maxListedResources = 100

// listResourcesMiddleware answers resources/list with the current handles
// and artifacts. They come and go with every call, so they cannot be
// registered with the SDK as static resources; the SDK's own answer is kept
// for whatever else it carries, its list replaced.
func (s *Server) listResourcesMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method != "resources/list" || err != nil {
			return res, err
		}
		list, ok := res.(*mcp.ListResourcesResult)
		if !ok { // a middleware reshaped it before this one: see buildMCP
			return nil, fmt.Errorf("resources/list: the SDK answered a %T", res)
		}
		if list.Resources, err = s.currentResources(ctx); err != nil {
			return nil, err
		}
		list.NextCursor = ""
		return list, nil
	}
}

// currentResources lists the newest handles and artifacts, newest first.
func (s *Server) currentResources(ctx context.Context) ([]*mcp.Resource, error) {
	handles, err := s.opts.Store.Handles(ctx, maxListedResources)
	if err != nil {
		return nil, err
	}
	arts, err := s.opts.Store.Artifacts(ctx, "", maxListedResources)
	if err != nil {
		return nil, err
	}
	out := make([]*mcp.Resource, 0, min(len(handles)+len(arts), maxListedResources))
	for len(out) < maxListedResources && (len(handles) > 0 || len(arts) > 0) {
		var l tool.Link
		var created time.Time
		if len(arts) == 0 || (len(handles) > 0 && !handles[0].Created.Before(arts[0].Created)) {
			h := handles[0]
			handles = handles[1:]
			l, created = tool.HandleLink(h.ID, h.Type, h.Meta, h.Size), h.Created
		} else {
			a := arts[0]
			arts = arts[1:]
			l, created = tool.ArtifactLink(a.ID, a.Tool, a.Type, a.MIME, a.Size), a.Created
		}
		desc := fmt.Sprintf("made %s", created.Format(time.RFC3339))
		if note := readNote(l); note != "" {
			desc += "; " + note
		}
		out = append(out, &mcp.Resource{URI: l.URI, Name: l.Name, Title: l.Title, MIMEType: l.MIMEType, Size: l.Size, Description: desc})
	}
	return out, nil
}
