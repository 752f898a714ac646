package search

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// The search tools name their directory path, as the file tools do, and
// still take root, its earlier name; case is ignore_case in both, and
// case_sensitive, search_files' earlier argument, is its opposite. Both
// names of one argument may be given only when they agree.
func TestSearchArgumentsAcceptTheirOtherNames(t *testing.T) {
	dir := t.TempDir()
	for p, c := range map[string]string{"sub/Needle.txt": "needle\n", "top.txt": "needle\n"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := setOver(t, dir)
	defs := map[string]*tool.Def{"search_files": s.files(), "search_content": s.content()}
	cases := []struct {
		tool  string
		args  map[string]any
		hits  int    // when the call succeeds
		error string // else, in its message
	}{
		{"search_files", map[string]any{"pattern": "needle", "path": "sub"}, 1, ""},
		{"search_files", map[string]any{"pattern": "needle", "root": "sub"}, 1, ""},
		{"search_files", map[string]any{"pattern": "needle", "root": "sub", "path": "sub"}, 1, ""},
		{"search_files", map[string]any{"pattern": "needle", "root": ".", "path": "sub"}, 0, "root and path"},
		{"search_files", map[string]any{"pattern": "needle"}, 1, ""}, // case ignored by default
		{"search_files", map[string]any{"pattern": "needle", "ignore_case": false}, 0, ""},
		{"search_files", map[string]any{"pattern": "needle", "case_sensitive": true}, 0, ""},
		{"search_files", map[string]any{"pattern": "needle", "case_sensitive": false, "ignore_case": true}, 1, ""},
		{"search_files", map[string]any{"pattern": "needle", "case_sensitive": true, "ignore_case": true}, 0, "case_sensitive and ignore_case"},
		{"search_content", map[string]any{"pattern": "needle", "path": "sub"}, 1, ""},
		{"search_content", map[string]any{"pattern": "needle", "root": "sub"}, 1, ""},
		{"search_content", map[string]any{"pattern": "needle", "root": "sub", "path": "."}, 0, "root and path"},
		{"search_content", map[string]any{"pattern": "NEEDLE", "case_sensitive": false}, 2, ""},
		{"search_content", map[string]any{"pattern": "NEEDLE", "case_sensitive": true}, 0, ""},
		{"search_content", map[string]any{"pattern": "NEEDLE", "case_sensitive": true, "ignore_case": false}, 0, ""},
	}
	for _, tc := range cases {
		for _, eng := range []string{"native", "rg"} {
			if eng == "rg" && !s.exec.Available("rg") {
				continue
			}
			args := map[string]any{"engine": eng}
			for k, v := range tc.args {
				args[k] = v
			}
			res, _ := call(t, defs[tc.tool], args)
			if tc.error != "" {
				if res.Err == nil || res.Err.Code != tool.InvalidParams || !strings.Contains(res.Err.Message, tc.error) {
					t.Errorf("%s %v: want INVALID_PARAMS naming %q, got %s", tc.tool, args, tc.error, res.JSON)
				}
				continue
			}
			if res.Err != nil {
				t.Errorf("%s %v: %s: %s", tc.tool, args, res.Err.Code, res.Err.Message)
				continue
			}
			var out struct {
				TotalHits int `json:"total_hits"`
			}
			if err := json.Unmarshal(res.Envelope.Data, &out); err != nil {
				t.Fatal(err)
			}
			if out.TotalHits != tc.hits {
				t.Errorf("%s %v: %d hits, want %d", tc.tool, args, out.TotalHits, tc.hits)
			}
		}
	}
}
