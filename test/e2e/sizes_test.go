package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// Default answers are sized for a model's context, and what they leave out
// is one call away: proc_list cuts command lines and keeps them whole in
// its handle, full: true and command_width bring them back; fs_list
// entries and fs_read's meta carry no default fields, and mtime: true adds
// what fs_list leaves out.
func TestDefaultAnswersSizedForContext(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t, "")
	if err := os.MkdirAll(filepath.Join(e.root, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.root, "d", "f.txt"), []byte("four\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sleeper := exec.Command("sleep", append([]string{"600"}, strings.Fields(strings.Repeat("0 ", 60))...)...)
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sleeper.Process.Kill(); _ = sleeper.Wait() })
	whole := strings.Join(sleeper.Args, " ")
	pid := sleeper.Process.Pid
	cs := e.connectStdio(t, ctx)
	tools := listTools(t, ctx, cs)

	type procs struct {
		Processes []map[string]any `json:"processes"`
		Handle    string           `json:"handle"`
	}
	list := func(args map[string]any) (map[string]any, procs, []string) {
		t.Helper()
		args["pids"] = []int{pid}
		env, _ := call(t, ctx, cs, tools, "proc_list", args)
		var out procs
		if err := json.Unmarshal(env.Data, &out); err != nil || !env.Success || len(out.Processes) != 1 {
			t.Fatalf("proc_list %v: %+v (%v)", args, env, err)
		}
		return out.Processes[0], out, env.Warnings
	}
	row, out, warnings := list(map[string]any{})
	cmd, _ := row["command"].(string)
	if utf8.RuneCountInString(cmd) != 60 || !strings.HasSuffix(cmd, "…") || !strings.HasPrefix(whole, strings.TrimSuffix(cmd, "…")) {
		t.Errorf("default row's command %q: want %q cut at 60 characters", cmd, whole)
	}
	for _, k := range []string{"user", "name", "threads", "start_time", "mem_percent"} {
		if _, ok := row[k]; ok {
			t.Errorf("default row has %s: %v", k, row)
		}
	}
	if out.Handle == "" || len(warnings) != 1 || !strings.Contains(warnings[0], "cut at 60 characters") {
		t.Fatalf("no handle for the cut command line, or no warning: %+v %q", out, warnings)
	}
	env, _ := call(t, ctx, cs, tools, "handle_read", map[string]any{"handle": out.Handle})
	var page struct {
		Content string `json:"content"`
	}
	var kept map[string]any
	if err := json.Unmarshal(env.Data, &page); err != nil || !env.Success {
		t.Fatalf("handle_read: %+v (%v)", env, err)
	}
	if err := json.Unmarshal([]byte(page.Content), &kept); err != nil || kept["command"] != whole || kept["name"] != "sleep" || kept["user"] == nil || kept["start_time"] == nil {
		t.Errorf("the handle's row is not whole: %q (%v)", page.Content, err)
	}
	if row, out, _ = list(map[string]any{"full": true}); row["command"] != whole || row["threads"] == nil || out.Handle != "" {
		t.Errorf("full: true gave %v, handle %q", row, out.Handle)
	}
	if row, out, _ = list(map[string]any{"command_width": 4096}); row["command"] != whole || out.Handle != "" {
		t.Errorf("command_width 4096 gave %v, handle %q", row, out.Handle)
	}

	entries := func(args map[string]any) []map[string]any {
		t.Helper()
		env, _ := call(t, ctx, cs, tools, "fs_list", args)
		var out struct {
			Entries []map[string]any `json:"entries"`
		}
		if err := json.Unmarshal(env.Data, &out); err != nil || !env.Success {
			t.Fatalf("fs_list %v: %+v (%v)", args, env, err)
		}
		return out.Entries
	}
	want := []map[string]any{{"path": "d/"}, {"path": "d/f.txt", "size_bytes": 5.0}}
	if got := entries(map[string]any{}); !reflect.DeepEqual(got, want) {
		t.Errorf("fs_list entries: %v, want %v", got, want)
	}
	got := entries(map[string]any{"path": "d/", "mtime": true})
	if len(got) != 1 || got[0]["mtime_iso"] == nil {
		t.Fatalf("fs_list with mtime: %v", got)
	}
	if delete(got[0], "mtime_iso"); !reflect.DeepEqual(got[0], map[string]any{"path": "f.txt", "size_bytes": 5.0}) {
		t.Errorf("fs_list with mtime: %v", got)
	}

	env, _ = call(t, ctx, cs, tools, "fs_read", map[string]any{"path": "d/f.txt"})
	var read struct {
		Content string                     `json:"content"`
		Meta    map[string]json.RawMessage `json:"meta"`
	}
	if err := json.Unmarshal(env.Data, &read); err != nil || read.Content != "four\n" {
		t.Fatalf("fs_read: %+v (%v)", env, err)
	}
	for _, k := range []string{"start_line", "truncated", "path", "size_bytes"} {
		if _, ok := read.Meta[k]; ok {
			t.Errorf("fs_read of a whole file has %s in meta: %s", k, env.Data)
		}
	}
	for _, k := range []string{"returned_lines", "sha256"} {
		if _, ok := read.Meta[k]; ok {
			t.Errorf("fs_read of a whole file has %s in meta unasked: %s", k, env.Data)
		}
	}
	env, _ = call(t, ctx, cs, tools, "fs_read", map[string]any{"path": "d/f.txt", "sha256": true})
	if err := json.Unmarshal(env.Data, &read); err != nil {
		t.Fatalf("fs_read with sha256: %+v (%v)", env, err)
	}
	sum := sha256.Sum256([]byte("four\n"))
	if want := `"` + hex.EncodeToString(sum[:]) + `"`; string(read.Meta["sha256"]) != want {
		t.Errorf("fs_read with sha256: %s, want %s", read.Meta["sha256"], want)
	}
}
