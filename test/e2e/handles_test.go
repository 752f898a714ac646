package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A result over the output cap comes back truncated with a handle, and
// handle_read pages through all of it, also after the server restarts.
func TestOverCapResultIsPagedThroughAHandleAcrossRestart(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t, "[tools.perf_info]\noutput_cap_bytes = 1024\n")
	cs := e.connectStdio(t, ctx)
	tools := listTools(t, ctx, cs)
	env, _ := call(t, ctx, cs, tools, "perf_info", map[string]any{})
	if !env.Success || !env.Truncated || env.Handle == "" || len(env.Data) != 0 {
		t.Fatalf("want a truncated success with a handle, got %+v", env)
	}
	if !strings.HasPrefix(env.Handle, "H_") {
		t.Errorf("handle %q is not H_<type>_<timestamp>_<random>", env.Handle)
	}
	first := readAll(t, cs, tools, env.Handle, "lines", 7)
	var data map[string]any
	if err := json.Unmarshal([]byte(first), &data); err != nil {
		t.Fatalf("paged payload is not the whole JSON data: %v\n%s", err, first)
	}
	if data["system"] == nil || data["capabilities"] == nil {
		t.Errorf("payload lacks perf_info's sections: %v", data)
	}
	var preview map[string]any
	if err := json.Unmarshal(env.DataPreview, &preview); err != nil {
		t.Errorf("data_preview is not perf_info's data: %v\n%s", err, env.DataPreview)
	}
	for k := range preview {
		if _, ok := data[k]; !ok {
			t.Errorf("data_preview has %q, which the data lacks", k)
		}
	}
	if bytes := readAll(t, cs, tools, env.Handle, "bytes", 300); bytes != first {
		t.Errorf("paging by bytes gives other content than by lines")
	}
	cs.Close()

	cs2 := e.connectStdio(t, ctx)
	tools2 := listTools(t, ctx, cs2)
	if again := readAll(t, cs2, tools2, env.Handle, "lines", 50); again != first {
		t.Errorf("after a restart the handle reads differently")
	}
	res, err := cs2.ReadResource(ctx, &mcp.ReadResourceParams{URI: "hostmcp://handle/" + env.Handle})
	if err != nil {
		t.Fatalf("reading the handle as a resource: %v", err)
	}
	if res.Contents[0].Text != first {
		t.Errorf("resource content differs from handle_read's")
	}
}

// readAll pages a handle to its end, limit units at a time.
func readAll(t *testing.T, cs *mcp.ClientSession, tools map[string]*mcp.Tool, handle, unit string, limit int) string {
	t.Helper()
	ctx := testCtx(t)
	var b strings.Builder
	offset := 0
	for range 10000 {
		env, _ := call(t, ctx, cs, tools, "handle_read", map[string]any{"handle": handle, "offset": offset, "limit": limit, "unit": unit})
		if !env.Success {
			t.Fatalf("handle_read at %d: %+v", offset, env.Error)
		}
		var page struct {
			Content    string `json:"content"`
			HasMore    bool   `json:"has_more"`
			NextOffset int    `json:"next_offset"`
			Returned   int    `json:"returned"`
		}
		if err := json.Unmarshal(env.Data, &page); err != nil {
			t.Fatal(err)
		}
		b.WriteString(page.Content)
		if !page.HasMore {
			return b.String()
		}
		if page.NextOffset <= offset {
			t.Fatalf("handle_read does not advance: offset %d, next %d", offset, page.NextOffset)
		}
		offset = page.NextOffset
	}
	t.Fatal("handle_read never ended")
	return ""
}
