package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A result over the cap comes back with a preview that is the result
// itself, its arrays cut to their first items, counts of what was cut, and
// a warning giving the exact handle_read call that goes on where it stops.
func TestOverCapPreviewIsData(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	const capBytes = 4096
	e := newEnv(t, fmt.Sprintf("[tools.fs_list]\noutput_cap_bytes = %d\n", capBytes))
	for i := range 300 {
		if err := os.WriteFile(filepath.Join(e.root, fmt.Sprintf("file_%03d.txt", i)), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := e.connectStdio(t, ctx)
	tools := listTools(t, ctx, cs)
	env, res := call(t, ctx, cs, tools, "fs_list", map[string]any{"path": ".", "max_entries": 1000})
	if !env.Success || !env.Truncated || env.Handle == "" || len(env.Data) != 0 {
		t.Fatalf("want a truncated success with a handle, got %+v", env)
	}
	if n := len(res.Content[0].(*mcp.TextContent).Text); n > capBytes {
		t.Errorf("the answer is %d bytes, over the %d-byte cap", n, capBytes)
	}
	var preview struct {
		Dir     string `json:"dir"`
		Entries []struct {
			Path string `json:"path"`
			Type string `json:"type"`
			Size *int64 `json:"size_bytes"`
		} `json:"entries"`
		TotalEntries int `json:"total_entries"`
	}
	if err := json.Unmarshal(env.DataPreview, &preview); err != nil {
		t.Fatalf("data_preview is not fs_list's data: %v\n%.300s", err, env.DataPreview)
	}
	k := len(preview.Entries)
	if k == 0 || k >= 300 || preview.TotalEntries != 300 || preview.Dir == "" {
		t.Fatalf("preview: %d entries of %d in %q", k, preview.TotalEntries, preview.Dir)
	}
	for i, en := range preview.Entries {
		if want := fmt.Sprintf("file_%03d.txt", i); en.Path != want || en.Type != "" || en.Size == nil || *en.Size != 1 {
			t.Errorf("preview entry %d = %+v, want %s, a file (no type) of 1 byte", i, en, want)
		}
	}
	if len(env.PreviewCounts) != 1 {
		t.Fatalf("preview_counts = %+v, want one, for $.entries", env.PreviewCounts)
	}
	c := env.PreviewCounts[0]
	if c.Path != "$.entries" || c.Unit != "items" || c.Kept != k || c.Total != 300 {
		t.Errorf("preview_counts[0] = %+v, want $.entries, items, %d of 300", c, k)
	}
	// The warning's call, made as given, goes on with the first entry left out.
	next := fmt.Sprintf(`handle_read {"handle":%q,"offset":%d,"unit":"lines"}`, env.Handle, c.HandleLine)
	if len(env.Warnings) == 0 || !strings.Contains(strings.Join(env.Warnings, "\n"), next) {
		t.Fatalf("no warning gives the next call %s: %q", next, env.Warnings)
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(strings.TrimPrefix(next, "handle_read ")), &args); err != nil {
		t.Fatal(err)
	}
	page, _ := call(t, ctx, cs, tools, "handle_read", args)
	var got struct {
		Content string `json:"content"`
	}
	if err := json.Unmarshal(page.Data, &got); err != nil || !page.Success {
		t.Fatalf("handle_read %v: %+v", args, page.Error)
	}
	if want := fmt.Sprintf("file_%03d.txt", k); !strings.Contains(strings.SplitN(got.Content, "}", 2)[0], want) {
		t.Errorf("the next call starts with %.80q, want the entry %s", got.Content, want)
	}
}
