package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

const (
	handleURIPrefix   = tool.HandleURIPrefix
	artifactURIPrefix = tool.ArtifactURIPrefix
)

// addResources serves handles as a resource template, so a client that
// prefers resources can fetch a whole stored result in one read.
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
	if a.Size > maxResourceBytes {
		return nil, tooLargeToRead(uri, a.Size, "perf_get_artifact")
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
// a client should take in one message. A larger one is refused, never cut
// short without a word: its link and listing give its size, and the tools
// page it.
const maxResourceBytes = 1 << 20

// tooLargeToRead is the error for a resource over maxResourceBytes.
func tooLargeToRead(uri string, size int64, tool string) error {
	return &jsonrpc.Error{
		Code:    jsonrpc.CodeInvalidParams,
		Message: fmt.Sprintf("%s is %d bytes, over the %d bytes one resource read returns: page it with the tool %s", uri, size, maxResourceBytes, tool),
		Data:    json.RawMessage(fmt.Sprintf(`{"uri":%q,"size":%d,"limit":%d}`, uri, size, maxResourceBytes)),
	}
}

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
	if sl.HasMore {
		return nil, tooLargeToRead(uri, sl.Total, "handle_read")
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: tool.HandleMIME, Text: sl.Content}}}, nil
}
