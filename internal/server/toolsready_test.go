package server

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tools are registered with the SDK behind the initialize answer; a
// client still sees the tools capability at initialize, every served tool
// in its first tools/list (sent at once), and no list-changed notification
// for the registration.
func TestToolsRegisteredBehindInitialize(t *testing.T) {
	s := newServer(t, nil)
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	var changed atomic.Int32
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed.Add(1) },
	}).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if caps := cs.InitializeResult().Capabilities; caps.Tools == nil {
		t.Errorf("initialize declares no tools: %+v", caps)
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tl := range list.Tools {
		got = append(got, tl.Name)
	}
	if diff := cmp.Diff(names(s), got); diff != "" {
		t.Errorf("first tools/list (-served +listed):\n%s", diff)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "core_a", Arguments: map[string]any{"content": "abc"}})
	if err != nil || res.IsError {
		t.Fatalf("core_a: %v %+v", err, res)
	}
	time.Sleep(100 * time.Millisecond) // ten times the SDK's delay before it notifies
	if n := changed.Load(); n != 0 {
		t.Errorf("%d tools/list_changed notifications; the list never changes once served", n)
	}
}
