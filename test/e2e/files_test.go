package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFilesTools drives every files tool through the built binary: the
// success path, then the error each tool owes the agent.
func TestFilesTools(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	// This client does not declare elicitation: the recursive delete below
	// runs unconfirmed, with a warning, as the operator allows here.
	e := newEnv(t, "[confirm]\nwithout_client_support = \"allow\"\n")
	var big strings.Builder
	for i := range 500 {
		fmt.Fprintf(&big, "line %d\n", i)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(e.root, "big.txt"), []byte(big.String()), 0o600))
	must(os.WriteFile(filepath.Join(e.root, "bin"), []byte("\x7fELF\x00\x01"), 0o644))
	must(syscall.Mkfifo(filepath.Join(e.root, "fifo"), 0o644))
	cs := e.connectStdio(t, ctx)
	tools := listTools(t, ctx, cs)
	for _, n := range []string{"fs_read", "fs_write", "fs_list", "fs_move", "fs_delete", "fs_mkdirs", "handle_read"} {
		if tools[n] == nil {
			t.Fatalf("%s is not served", n)
		}
	}
	ok := func(name string, args map[string]any, out any) {
		t.Helper()
		env, _ := call(t, ctx, cs, tools, name, args)
		if !env.Success {
			t.Fatalf("%s %v: %+v", name, args, env.Error)
		}
		if out != nil {
			must(json.Unmarshal(env.Data, out))
		}
	}
	fails := func(name string, args map[string]any, code string) {
		t.Helper()
		env, _ := call(t, ctx, cs, tools, name, args)
		if env.Success || env.Error == nil || env.Error.Code != code || env.Error.Suggestion == "" {
			t.Errorf("%s %v: want %s with a suggestion, got %+v", name, args, code, env.Error)
		}
	}

	var rd struct {
		Content string `json:"content"`
		Handle  string `json:"handle"`
		Meta    struct {
			TotalLines int    `json:"total_lines"`
			Truncated  bool   `json:"truncated"`
			Next       int    `json:"next_offset_lines"`
			SHA        string `json:"sha256"`
		} `json:"meta"`
	}
	ok("fs_read", map[string]any{"path": "big.txt", "offset_lines": 100, "max_lines": 2, "sha256": true}, &rd)
	if rd.Content != "line 100\nline 101\n" || rd.Meta.TotalLines != 500 || !rd.Meta.Truncated || rd.Meta.Next != 102 || rd.Handle == "" {
		t.Errorf("fs_read window: %+v", rd)
	}
	if all := readAll(t, cs, tools, rd.Handle, "lines", 400); all != big.String() {
		t.Errorf("the handle does not hold the whole file")
	}
	ok("fs_read", map[string]any{"path": filepath.Join(e.root, "big.txt"), "offset_lines": -2}, &rd)
	if rd.Content != "line 498\nline 499\n" {
		t.Errorf("tail: %q", rd.Content)
	}
	fails("fs_read", map[string]any{"path": "bin"}, "BINARY_FILE")
	fails("fs_read", map[string]any{"path": "fifo"}, "NOT_A_REGULAR_FILE")
	fails("fs_read", map[string]any{"path": "missing"}, "NOT_FOUND")
	fails("fs_read", map[string]any{"path": "/etc/passwd"}, "INVALID_PATH")
	fails("fs_read", map[string]any{"path": "big.txt", "max_lines": 5000}, "INVALID_PARAMS")

	var wr struct {
		Bytes int64  `json:"bytes_written"`
		SHA   string `json:"new_sha256"`
		Mode  string `json:"file_mode"`
	}
	ok("fs_write", map[string]any{"path": "big.txt", "content": "new\n", "expected_sha256": rd.Meta.SHA}, &wr)
	sum := sha256.Sum256([]byte("new\n"))
	if wr.Bytes != 4 || wr.SHA != hex.EncodeToString(sum[:]) || wr.Mode != "0600" {
		t.Errorf("fs_write: %+v", wr)
	}
	fails("fs_write", map[string]any{"path": "big.txt", "content": "x", "expected_sha256": rd.Meta.SHA}, "SHA_MISMATCH")
	ok("fs_write", map[string]any{"path": "big.txt", "content": "more\n", "mode": "append"}, nil)
	if b, _ := os.ReadFile(filepath.Join(e.root, "big.txt")); string(b) != "new\nmore\n" {
		t.Errorf("after append: %q", b)
	}
	fails("fs_write", map[string]any{"path": "a/b/c.txt", "content": "x"}, "NOT_FOUND")
	ok("fs_write", map[string]any{"path": "a/b/c.txt", "content": "x", "create_parents": true}, nil)
	fails("fs_write", map[string]any{"path": "fifo", "content": "x"}, "NOT_A_REGULAR_FILE")
	fails("fs_write", map[string]any{"path": "x", "content": "x", "mode": "truncate"}, "INVALID_PARAMS")

	var mk struct {
		Created bool `json:"created"`
	}
	ok("fs_mkdirs", map[string]any{"path": "d1/d2"}, &mk)
	if !mk.Created {
		t.Errorf("fs_mkdirs did not create")
	}
	fails("fs_mkdirs", map[string]any{"path": "d1/d2", "exist_ok": false}, "ALREADY_EXISTS")

	var ls struct {
		Entries []struct {
			Path, Type string
		} `json:"entries"`
		Truncated bool   `json:"truncated"`
		Handle    string `json:"handle"`
	}
	ok("fs_list", map[string]any{"path": ".", "max_entries": 2}, &ls)
	if len(ls.Entries) != 2 || !ls.Truncated || ls.Handle == "" {
		t.Errorf("fs_list: %+v", ls)
	}
	fails("fs_list", map[string]any{"path": "big.txt"}, "NOT_A_DIRECTORY")

	ok("fs_move", map[string]any{"source": "a/b/c.txt", "target": "d1/c.txt"}, nil)
	fails("fs_move", map[string]any{"source": "big.txt", "target": "d1/c.txt"}, "ALREADY_EXISTS")
	ok("fs_move", map[string]any{"source": "big.txt", "target": "d1/c.txt", "overwrite": true}, nil)
	fails("fs_move", map[string]any{"source": "nope", "target": "x"}, "NOT_FOUND")

	var del struct {
		Deleted bool     `json:"deleted"`
		Would   []string `json:"would_delete"`
	}
	ok("fs_delete", map[string]any{"path": "d1", "recursive": true, "dry_run": true}, &del)
	if del.Deleted || len(del.Would) != 2 {
		t.Errorf("dry run: %+v", del)
	}
	fails("fs_delete", map[string]any{"path": "d1"}, "IS_DIRECTORY")
	fails("fs_delete", map[string]any{"path": ".", "recursive": true}, "PERMISSION_DENIED")
	env, _ := call(t, ctx, cs, tools, "fs_delete", map[string]any{"path": "d1", "recursive": true})
	must(json.Unmarshal(env.Data, &del))
	if _, err := os.Stat(filepath.Join(e.root, "d1")); !env.Success || !del.Deleted || !os.IsNotExist(err) {
		t.Errorf("d1 still exists: %+v", env.Error)
	}
	if len(env.Warnings) != 1 || !strings.Contains(env.Warnings[0], `ran without a person's confirmation`) {
		t.Errorf("the unconfirmed delete warned %q", env.Warnings)
	}
}
