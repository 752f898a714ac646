package server

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// keepSet is one tool that keeps three items as a handle, as a search
// keeps its hits, and answers with the handle's id.
func keepSet() tool.Toolset {
	type out struct {
		Handle string `json:"handle"`
	}
	type item struct {
		Line int `json:"line"`
	}
	return tool.Toolset{Name: "keep", Description: "keep", DefaultEnabled: true, Tools: []*tool.Def{
		tool.New(tool.Spec{Name: "keep_items", Title: "keep", Description: "keep", Kind: tool.ReadOnly},
			func(ctx context.Context, call *tool.Call, _ noIn) (out, error) {
				return out{Handle: tool.PutLines(ctx, call, "items", nil, []item{{1}, {2}, {3}}, 0)}, nil
			}),
	}}
}

// A call that keeps a result as a handle answers while another writer
// holds the database (it used to wait the busy timeout, then answer
// without its handle); once the database is free, resources/read and
// resources/list give the handle, and /metrics counts a deferred write.
func TestHandleIsWrittenAfterTheAnswer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := store.Open(context.Background(), &store.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Handles(context.Background(), 0); err != nil { // the schema, before the lock
		t.Fatal(err)
	}
	cfg := config.Default(t.TempDir(), 0, func(string) string { return "" })
	cfg.Confirm.Tools = nil
	s, err := New(Options{Config: cfg, Store: st, Toolsets: []tool.Toolset{keepSet()}})
	if err != nil {
		t.Fatal(err)
	}
	tx := holdWriteLock(t, path)
	res, err := s.Call(context.Background(), "keep_items", json.RawMessage(`{}`))
	if err != nil || res.Err != nil {
		t.Fatalf("call: %v %+v", err, res.Err)
	}
	var env struct {
		Data struct {
			Handle string `json:"handle"`
		} `json:"data"`
	}
	if err := json.Unmarshal(res.JSON, &env); err != nil || env.Data.Handle == "" {
		t.Fatalf("the answer given with the database locked has no handle: %s", res.JSON)
	}
	id := env.Data.Handle
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}

	read, err := s.readHandleResource(context.Background(), &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: tool.HandleURIPrefix + id}})
	if err != nil || len(read.Contents) != 1 || read.Contents[0].Text != "{\"line\":1}\n{\"line\":2}\n{\"line\":3}\n" {
		t.Errorf("resources/read of %s: %+v, %v", id, read, err)
	}
	list, err := s.currentResources(context.Background())
	if err != nil || !slices.ContainsFunc(list, func(r *mcp.Resource) bool { return r.Name == id }) {
		t.Errorf("resources/list: %v; want %s in it", err, id)
	}
	if got := gatheredValue(t, s, "hostmcp_handle_writes_total", "deferred"); got != 1 {
		t.Errorf("hostmcp_handle_writes_total{how=deferred} = %v, want 1", got)
	}
}
