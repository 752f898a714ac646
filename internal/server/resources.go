package server

import (
	"context"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/store"
)

const (
	handleURIPrefix   = "hostmcp://handle/"
	artifactURIPrefix = "hostmcp://artifact/"
)

// addResources serves handles as a resource template, so a client that
// prefers resources can fetch a whole stored result in one read.
func (s *Server) addResources(srv *mcp.Server) {
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "handle",
		Title:       "Stored result",
		Description: "A large result kept by hostmcp (JSON or text); tools return its id as `handle`.",
		MIMEType:    "text/plain",
		URITemplate: handleURIPrefix + "{id}",
	}, s.readHandleResource)
	srv.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "artifact",
		Title:       "Profiling artifact",
		Description: "A file a profiling tool produced: collapsed stacks (text), a pprof profile (binary), a flame graph (SVG); their answers give the ids.",
		MIMEType:    "application/octet-stream",
		URITemplate: artifactURIPrefix + "{id}",
	}, s.readArtifactResource)
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
	mime := "text/plain"
	if sl.Handle.Type == "result" {
		mime = "application/json"
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: sl.Content}}}, nil
}
