package files

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// listRaw calls fs_list over root and returns its entries as the JSON the
// model reads, the decoded answer and the handles the call stored.
func listRaw(t *testing.T, root string, args map[string]any) ([]string, listOut, map[string][]byte) {
	t.Helper()
	roots, err := fsroot.Open([]fsroot.Spec{{Path: root}})
	mustDo(t, err)
	defer roots.Close()
	d := New(&Deps{Roots: roots}).list()
	handles := map[string][]byte{}
	r := &tool.Runner{Handles: func(_ context.Context, _ string, _ map[string]any, p []byte) (string, error) {
		id := fmt.Sprintf("H_test_%d", len(handles))
		handles[id] = p
		return id, nil
	}}
	raw, _ := json.Marshal(args)
	res := r.Run(context.Background(), tool.Invocation{Def: d, Args: raw})
	if res.Err != nil {
		t.Fatalf("fs_list %s: %s", raw, res.JSON)
	}
	if err := tool.ValidateEnvelope(d, res.JSON); err != nil {
		t.Fatalf("fs_list %s: %v", raw, err)
	}
	var out listOut
	var rows struct {
		Entries []json.RawMessage `json:"entries"`
	}
	mustDo(t, json.Unmarshal(res.Envelope.Data, &out))
	mustDo(t, json.Unmarshal(res.Envelope.Data, &rows))
	var shown []string
	for _, e := range rows.Entries {
		shown = append(shown, string(e))
	}
	return shown, out, handles
}

// A default entry says what an agent needs to find its way: the path (a
// directory's ends in /), a file's size, and a type only where it is
// neither; no mtime, no zero or false field. mtime: true adds mtimes, and
// the handle holds the entries in the same form.
func TestListEntriesCompact(t *testing.T) {
	root := t.TempDir()
	mustDo(t, os.MkdirAll(filepath.Join(root, "a", "deep", "er"), 0o755))
	mustDo(t, os.WriteFile(filepath.Join(root, "a", "b.go"), []byte("package a\n"), 0o644))
	mustDo(t, os.WriteFile(filepath.Join(root, "a", "empty"), nil, 0o644))
	mustDo(t, os.Symlink("a/b.go", filepath.Join(root, "link")))
	mustDo(t, syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644))
	when := time.Date(2026, 11, 1, 12, 30, 0, 0, time.UTC)
	mustDo(t, os.Chtimes(filepath.Join(root, "a", "b.go"), when, when))

	shown, out, _ := listRaw(t, root, map[string]any{})
	want := []string{
		`{"path":"a/"}`,
		`{"path":"a/b.go","size_bytes":10}`,
		`{"path":"a/deep/"}`,
		`{"path":"a/deep/er/"}`,
		`{"path":"a/empty","size_bytes":0}`,
		`{"path":"link","type":"symlink","link_target":"a/b.go"}`,
		`{"path":"pipe","type":"fifo"}`,
	}
	if strings.Join(shown, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(shown, "\n"), strings.Join(want, "\n"))
	}
	if out.Truncated || out.Handle != "" || !out.Complete {
		t.Errorf("answer: %+v", out)
	}

	// A directory's path, as listed, lists it.
	shown, _, _ = listRaw(t, root, map[string]any{"path": "a/deep/"})
	if strings.Join(shown, " ") != `{"path":"er/"}` {
		t.Errorf("listing a/deep/: %v", shown)
	}

	shown, out, handles := listRaw(t, root, map[string]any{"mtime": true, "max_entries": 2})
	for _, e := range shown {
		if !strings.Contains(e, `"mtime_iso":"`) {
			t.Errorf("mtime: true: %s has no mtime", e)
		}
	}
	if len(shown) != 2 || shown[1] != `{"path":"a/b.go","size_bytes":10,"mtime_iso":"2026-11-01T12:30:00Z"}` {
		t.Errorf("mtime: true: %v", shown)
	}
	lines := strings.Split(strings.TrimSuffix(string(handles[out.Handle]), "\n"), "\n")
	if !out.Truncated || len(lines) != len(want) || lines[0] != shown[0] || lines[1] != shown[1] ||
		!strings.HasPrefix(lines[6], `{"path":"pipe","type":"fifo","mtime_iso":"`) {
		t.Errorf("the handle of %+v holds:\n%s", out, handles[out.Handle])
	}
}
