package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// overCap runs a tool that returns out under a small cap and checks what
// every truncated answer must be: within the cap, with a handle holding
// the whole result as indented JSON.
func overCapRun[Out any](t *testing.T, out Out, capBytes int) (Envelope, *memHandles, []byte) {
	t.Helper()
	d := New(Spec{Name: "big", Title: "Big", Description: "A large result.", Kind: ReadOnly},
		func(context.Context, *Call, struct{}) (Out, error) { return out, nil })
	h := &memHandles{}
	r := &Runner{Host: "h", Version: "v1", Handles: h.put, Limits: func(Spec) Limits { return Limits{Timeout: time.Second, OutputCap: capBytes} }}
	res := r.Run(context.Background(), Invocation{Def: d, Args: json.RawMessage(`{}`)})
	if err := ValidateEnvelope(d, res.JSON); err != nil {
		t.Fatalf("answer does not match outputSchema: %v\n%s", err, res.JSON)
	}
	env := res.Envelope
	if !env.Truncated || env.Handle == "" || env.Data != nil {
		t.Fatalf("want truncated with a handle and no data: %s", res.JSON)
	}
	if len(res.JSON) > capBytes {
		t.Errorf("the answer is %d bytes, over the cap of %d", len(res.JSON), capBytes)
	}
	compact, _ := MarshalJSON(out)
	var want bytes.Buffer
	_ = json.Indent(&want, compact, "", " ")
	if got := h.m[env.Handle]; !bytes.Equal(got, want.Bytes()) {
		t.Errorf("the handle is not the result as indented JSON:\n%.300s", got)
	}
	return env, h, h.m[env.Handle]
}

// handleLine is line n (0-based) of a handle's text.
func handleLine(full []byte, n int) string {
	lines := strings.Split(string(full), "\n")
	if n < 0 || n >= len(lines) {
		return ""
	}
	return lines[n]
}

func TestPreviewIsDataWithArraysCut(t *testing.T) {
	type proc struct {
		PID     int      `json:"pid"`
		Threads []string `json:"threads"`
	}
	type result struct {
		Host  string `json:"host"`
		Procs []proc `json:"procs"`
		Total int    `json:"total"`
	}
	out := result{Host: "db1", Total: 300}
	for i := range 300 {
		out.Procs = append(out.Procs, proc{PID: i, Threads: []string{"a", "b", "c"}})
	}
	env, _, full := overCapRun(t, out, 2048)
	var got result
	if err := json.Unmarshal(env.DataPreview, &got); err != nil {
		t.Fatalf("data_preview is not the result's JSON: %v\n%s", err, env.DataPreview)
	}
	k := len(got.Procs)
	if k < 5 || k >= 300 || got.Host != "db1" || got.Total != 300 {
		t.Fatalf("preview keeps %d procs, host %q, total %d", k, got.Host, got.Total)
	}
	if diff := cmp.Diff(out.Procs[:k], got.Procs); diff != "" {
		t.Errorf("the preview's items are not the first ones (-want +got):\n%s", diff)
	}
	if len(env.PreviewCounts) != 1 {
		t.Fatalf("preview_counts = %+v, want one for $.procs", env.PreviewCounts)
	}
	c := env.PreviewCounts[0]
	if c.Path != "$.procs" || c.Unit != "items" || c.Kept != k || c.Total != 300 {
		t.Errorf("preview_counts[0] = %+v, want $.procs items %d of 300", c, k)
	}
	// The handle line continues with the first proc left out.
	if l := handleLine(full, c.HandleLine); l != "  {" || handleLine(full, c.HandleLine+1) != fmt.Sprintf(`   "pid": %d,`, k) {
		t.Errorf("handle line %d is %q then %q, want proc %d", c.HandleLine, l, handleLine(full, c.HandleLine+1), k)
	}
	call := fmt.Sprintf(`handle_read {"handle":%q,"offset":%d,"unit":"lines"}`, env.Handle, c.HandleLine)
	if len(env.Warnings) != 1 || !strings.Contains(env.Warnings[0], call) || !strings.Contains(env.Warnings[0], fmt.Sprintf("keeps %d of 300 items at $.procs", k)) {
		t.Errorf("the warning does not give the next call %s: %q", call, env.Warnings)
	}
}

// A result without arrays, or whose first items are already too long, is
// previewed with its long strings cut, and says so per path.
func TestPreviewCutsLongStrings(t *testing.T) {
	type result struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	}
	content := strings.Repeat("é\"line\"\n", 5000)
	env, _, full := overCapRun(t, result{Path: "/srv/app.log", Content: content}, 4096)
	var got result
	if err := json.Unmarshal(env.DataPreview, &got); err != nil {
		t.Fatalf("data_preview is not the result's JSON: %v", err)
	}
	if got.Path != "/srv/app.log" || len(got.Content) < 1000 || !strings.HasPrefix(content, got.Content) {
		t.Errorf("preview path %q, content %d bytes (a prefix: %v)", got.Path, len(got.Content), strings.HasPrefix(content, got.Content))
	}
	want := []PreviewCount{{Path: "$.content", Unit: "bytes", Kept: len(got.Content), Total: len(content), HandleLine: 2}}
	if diff := cmp.Diff(want, env.PreviewCounts); diff != "" {
		t.Errorf("preview_counts (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(handleLine(full, 2), ` "content": "é\"line\"`) {
		t.Errorf("handle line 2 is %.40q, not the content", handleLine(full, 2))
	}
}

// Map-like objects with many members are cut last, and odd member names
// are quoted in the path.
func TestPreviewCutsWideObjects(t *testing.T) {
	counts := map[string]map[string]int{"by name": {}}
	for i := range 500 {
		counts["by name"][fmt.Sprintf("syscall_%03d", i)] = i
	}
	env, _, _ := overCapRun(t, counts, 1024)
	var got map[string]map[string]int
	if err := json.Unmarshal(env.DataPreview, &got); err != nil {
		t.Fatalf("data_preview is not the result's JSON: %v", err)
	}
	n := len(got["by name"])
	if n == 0 || n >= 500 || got["by name"]["syscall_000"] != 0 {
		t.Errorf("preview keeps %d members: %v", n, got)
	}
	if len(env.PreviewCounts) != 1 || env.PreviewCounts[0].Path != `$["by name"]` || env.PreviewCounts[0].Unit != "members" || env.PreviewCounts[0].Kept != n {
		t.Errorf("preview_counts = %+v", env.PreviewCounts)
	}
}

// The handle's layout is json.Indent's, whatever the result holds.
func FuzzIndentJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,{"b":[]}],"c":"x\"y"}`, `[[],[[]],{"":null}]`, `"s"`, `1e9`, `{"a":{"b":{"c":[true,false]}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var v any
		if json.Unmarshal(in, &v) != nil {
			return
		}
		js, err := MarshalJSON(v)
		if err != nil {
			return
		}
		tree, err := parseJSON(js)
		if err != nil {
			t.Fatalf("parseJSON(%s): %v", js, err)
		}
		got, lines := tree.indent()
		var want bytes.Buffer
		if err := json.Indent(&want, js, "", " "); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("indentJSON(%s) =\n%s\nwant\n%s", js, got, want.Bytes())
		}
		if n := bytes.Count(got, []byte("\n")) + 1; lines != n {
			t.Fatalf("indentJSON(%s): %d lines, want %d", js, lines, n)
		}
	})
}
