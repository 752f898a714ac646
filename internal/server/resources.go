package server

import (
	"context"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

const (
	handleURIPrefix   = tool.HandleURIPrefix
	artifactURIPrefix = tool.ArtifactURIPrefix
)

// addResources serves handles as a resource template, so a client that
// prefers resources can fetch a whole stored result in one read, and lists
// the current handles and artifacts.
func (s *Server) addResources(srv *mcp.Server) {
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "handle",
		Title:       "Stored result",
		Description: "A large result kept by hostmcp (indented JSON, JSON Lines or a file's text); tools return its id as `handle`.",
		MIMEType:    tool.HandleMIME,
		URITemplate: handleURIPrefix + "{id}",
	}, s.readHandleResource)
	// No MIME type: artifacts differ (text, pprof, SVG), and the template's
	// would claim one for all; each artifact's own is in its link, in
	// resources/list and in resources/read.
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "artifact",
		Title:       "Profiling artifact",
		Description: "A file a profiling tool produced: collapsed stacks (text), a pprof profile (binary), a flame graph (SVG); their answers give the ids.",
		URITemplate: artifactURIPrefix + "{id}",
	}, s.readArtifactResource)
	srv.AddReceivingMiddleware(s.listResourcesMiddleware)
}

// readArtifactResource serves an artifact whole (up to maxResourceBytes),
// with its own MIME type: text as text, anything else as a blob.
func (s *Server) readArtifactResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, ok := strings.CutPrefix(uri, artifactURIPrefix)
	if !ok || !store.ValidArtifactID(id) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	a, b, err := s.opts.Store.ReadArtifact(ctx, id, 0, maxResourceBytes)
	if errors.Is(err, store.ErrArtifactNotFound) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		return nil, err
	}
	rc := &mcp.ResourceContents{URI: uri, MIMEType: a.MIME}
	if strings.HasPrefix(a.MIME, "text/") || strings.HasPrefix(a.MIME, "image/svg+xml") {
		rc.Text = string(b)
	} else {
		rc.Blob = b
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{rc}}, nil
}

// maxResourceBytes bounds one resource read: a handle can be larger than
// a client should take in one message; handle_read pages the rest.
const maxResourceBytes = 1 << 20

func (s *Server) readHandleResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	id, ok := strings.CutPrefix(uri, handleURIPrefix)
	if !ok || id == "" {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	sl, err := s.opts.Store.ReadHandle(ctx, id, 0, maxResourceBytes, store.Bytes)
	if errors.Is(err, store.ErrHandleNotFound) || errors.Is(err, store.ErrHandleExpired) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: tool.HandleMIME, Text: sl.Content}}}, nil
}
