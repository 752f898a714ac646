package files

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// fs_read's answer is the file's content plus a small meta: a whole file
// carries its line count (and the SHA-256 when asked) and no zero or false
// field; a window adds the path and size, where it starts, that it is one,
// and where the next begins. The content is there once.
func TestReadMetaCompact(t *testing.T) {
	root := t.TempDir()
	var text strings.Builder
	for i := range 300 {
		fmt.Fprintf(&text, "\tline %03d \"quoted\"\n", i)
	}
	whole := text.String()
	mustDo(t, os.WriteFile(filepath.Join(root, "f.go"), []byte(whole), 0o644))
	roots, err := fsroot.Open([]fsroot.Spec{{Path: root}})
	mustDo(t, err)
	defer roots.Close()
	d := New(&Deps{Roots: roots}).read()
	r := &tool.Runner{Handles: func(context.Context, string, map[string]any, []byte) (string, error) {
		return "H_filecontent_20261126T000000Z_0123abcd", nil
	}}
	sum := sha256.Sum256([]byte(whole))
	abs := filepath.Join(root, "f.go")
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "f.go", "max_lines": 2000},
			`{"total_lines":300}`},
		{map[string]any{"path": "f.go", "max_lines": 2000, "sha256": true},
			fmt.Sprintf(`{"total_lines":300,"sha256":%q}`, hex.EncodeToString(sum[:]))},
		{map[string]any{"path": "f.go", "offset_lines": 100, "max_lines": 50},
			fmt.Sprintf(`{"path":%q,"size_bytes":%d,"total_lines":300,"start_line":100,"returned_lines":50,"truncated":true,"next_offset_lines":150}`, abs, len(whole))},
		{map[string]any{"path": "f.go", "offset_lines": 100, "max_lines": 50, "sha256": true},
			fmt.Sprintf(`{"path":%q,"size_bytes":%d,"total_lines":300,"start_line":100,"returned_lines":50,"truncated":true,"next_offset_lines":150,"sha256":%q}`, abs, len(whole), hex.EncodeToString(sum[:]))},
	} {
		args, _ := json.Marshal(tc.args)
		res := r.Run(context.Background(), tool.Invocation{Def: d, Args: args})
		if res.Err != nil {
			t.Fatalf("%s: %s", args, res.JSON)
		}
		var out struct {
			Content string          `json:"content"`
			Meta    json.RawMessage `json:"meta"`
		}
		mustDo(t, json.Unmarshal(res.Envelope.Data, &out))
		if string(out.Meta) != tc.want {
			t.Errorf("%s: meta\n%s\nwant\n%s", args, out.Meta, tc.want)
		}
		content, _ := tool.MarshalJSON(out.Content)
		if n := strings.Count(string(res.JSON), string(content)); n != 1 {
			t.Errorf("%s: the content is in the answer %d times", args, n)
		}
	}
}
