package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// TestSearchTools drives search_files and search_content through the
// built binary with both engines, and their error paths.
func TestSearchTools(t *testing.T) {
	t.Parallel()
	testutil.RequireBinary(t, "rg")
	ctx := testCtx(t)
	e := newEnv(t, "")
	for i := range 30 {
		p := filepath.Join(e.root, "src", fmt.Sprintf("f%02d.go", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(fmt.Sprintf("package src\n\nfunc F%d() {} // TODO fix\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(e.root, ".gitignore"), []byte("src/f0*.go\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := e.connectStdio(t, ctx)
	tools := listTools(t, ctx, cs)
	for _, eng := range []string{"rg", "native"} {
		env, _ := call(t, ctx, cs, tools, "search_content", map[string]any{"pattern": `func F\d+`, "max_results": 5, "context_lines": 1, "engine": eng})
		var out struct {
			Hits []struct {
				Path    string `json:"path"`
				Line    int    `json:"line"`
				Snippet string `json:"snippet"`
			} `json:"hits"`
			Total     int    `json:"total_hits"`
			Truncated bool   `json:"truncated"`
			Handle    string `json:"handle"`
		}
		if !env.Success {
			t.Fatalf("%s: %+v", eng, env.Error)
		}
		_ = json.Unmarshal(env.Data, &out)
		if out.Total != 20 || len(out.Hits) != 5 || !out.Truncated || out.Handle == "" || out.Hits[0].Path != "src/f10.go" || out.Hits[0].Line != 3 || out.Hits[0].Snippet != "\nfunc F10() {} // TODO fix" {
			t.Errorf("%s: %+v", eng, out)
		}
		env, _ = call(t, ctx, cs, tools, "search_files", map[string]any{"pattern": "*.go", "engine": eng, "include_ignored": true, "max_results": 50})
		var files struct {
			Total int `json:"total_hits"`
		}
		_ = json.Unmarshal(env.Data, &files)
		if !env.Success || files.Total != 30 {
			t.Errorf("%s search_files: %d %+v", eng, files.Total, env.Error)
		}
	}
	for _, bad := range []map[string]any{
		{"pattern": "(unclosed"},
		{"pattern": "x", "root": "/etc"},
		{"pattern": "x", "file_glob": "[z-a"},
		{"pattern": "x", "engine": "grep"},
	} {
		env, _ := call(t, ctx, cs, tools, "search_content", bad)
		if env.Success || env.Error == nil || env.Error.Suggestion == "" {
			t.Errorf("%v: want an error with a suggestion, got %+v", bad, env)
		}
	}
}
