package server

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's own errors quote the request: "unknown tool %q" echoed a 3 MB
// name whole. The server clips every protocol error's message.
func TestProtocolErrorsAreClipped(t *testing.T) {
	s := newServer(t, nil)
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	huge := strings.Repeat("x", 3<<20)
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope"}); err == nil || !strings.Contains(err.Error(), `unknown tool "nope"`) {
		t.Errorf("a short message must stay whole: %v", err)
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: huge})
	if err == nil || !strings.Contains(err.Error(), "unknown tool") || len(err.Error()) > 1024 {
		t.Errorf("unknown tool: error of %d bytes: %.300v", len(err.Error()), err)
	}
	_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: huge})
	if err == nil || !strings.Contains(err.Error(), "unknown prompt") || len(err.Error()) > 1024 {
		t.Errorf("unknown prompt: error of %d bytes: %.300v", len(err.Error()), err)
	}
}
