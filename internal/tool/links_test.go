package tool

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A handle a call stores is linked from its answer; a failed call links
// nothing, whatever it stored before failing.
func TestResultLinksItsHandles(t *testing.T) {
	h := &memHandles{}
	r := &Runner{Handles: h.put, Limits: func(Spec) Limits { return Limits{Timeout: time.Second, OutputCap: 1024} }}
	res := r.Run(context.Background(), Invocation{Def: echoDef(), Args: json.RawMessage(`{"word":"abc","count":1000}`)})
	want := []Link{{
		URI: "hostmcp://handle/H_result_1", Name: "H_result_1", Title: "echo result, as indented JSON",
		MIMEType: "text/plain", Size: int64(len(h.m["H_result_1"])),
	}}
	if diff := cmp.Diff(want, res.Links); diff != "" {
		t.Errorf("links (-want +got):\n%s", diff)
	}
	d := New(Spec{Name: "half", Title: "Half", Description: "Stores, then fails.", Kind: ReadOnly},
		func(ctx context.Context, c *Call, _ struct{}) (struct{}, error) {
			if _, err := c.PutHandle(ctx, "part", nil, []byte("x")); err != nil {
				return struct{}{}, err
			}
			return struct{}{}, Errorf(NotFound, "gone")
		})
	if res := r.Run(context.Background(), Invocation{Def: d, Args: json.RawMessage(`{}`)}); res.Err == nil || res.Links != nil {
		t.Errorf("a failed call: error %v, links %v", res.Err, res.Links)
	}
}

func TestHandleTitle(t *testing.T) {
	tests := []struct {
		typ  string
		meta map[string]any
		want string
	}{
		{"result", map[string]any{"tool": "perf_info"}, "perf_info result, as indented JSON"},
		{"result", map[string]any{"tool": "proc_list", "format": "jsonl"}, "proc_list, one JSON object per line"},
		{"fs_list", map[string]any{"kind": "fs_list", "format": "jsonl", "path": "/srv"}, "fs_list, one JSON object per line"},
		{"file_content", map[string]any{"kind": "file_content", "path": "/srv/a.log"}, "file_content of /srv/a.log"},
		{"other", nil, "other"},
	}
	for _, tc := range tests {
		if got := HandleTitle(tc.typ, tc.meta); got != tc.want {
			t.Errorf("HandleTitle(%q, %v) = %q, want %q", tc.typ, tc.meta, got, tc.want)
		}
	}
}
