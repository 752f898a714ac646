package core

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

func TestHandleRead(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, &store.Options{Path: filepath.Join(t.TempDir(), "s.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var payload strings.Builder
	for i := range 50 {
		fmt.Fprintf(&payload, "line %d\n", i)
	}
	h, err := st.PutHandle(ctx, "test", map[string]any{"k": "v"}, []byte(payload.String()))
	if err != nil {
		t.Fatal(err)
	}
	d := New(st).handleRead()
	run := func(args string) tool.Result {
		res := (&tool.Runner{}).Run(ctx, tool.Invocation{Def: d, Args: json.RawMessage(args)})
		if err := tool.ValidateEnvelope(d, res.JSON); err != nil {
			t.Errorf("%s: %v", args, err)
		}
		return res
	}
	tests := []struct {
		name, args string
		code       tool.Code
		content    string
		more       bool
	}{
		{"first lines", `{"handle":"` + h.ID + `","limit":2}`, "", "line 0\nline 1\n", true},
		{"last lines", `{"handle":"` + h.ID + `","offset":48,"limit":5}`, "", "line 48\nline 49\n", false},
		{"bytes", `{"handle":"` + h.ID + `","unit":"bytes","offset":7,"limit":7}`, "", "line 1\n", true},
		{"bad unit", `{"handle":"` + h.ID + `","unit":"pages"}`, tool.InvalidParams, "", false},
		{"past the end", `{"handle":"` + h.ID + `","offset":500}`, tool.InvalidArgument, "", false},
		{"unknown", `{"handle":"H_test_20200101T000000Z_deadbeef"}`, tool.HandleNotFound, "", false},
		{"junk id", `{"handle":"'; drop table handles; --"}`, tool.HandleNotFound, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := run(tc.args)
			if tc.code != "" {
				if res.Err == nil || res.Err.Code != tc.code {
					t.Fatalf("want %s, got %s", tc.code, res.JSON)
				}
				return
			}
			var out handleReadOut
			if err := json.Unmarshal(res.Envelope.Data, &out); err != nil || res.Err != nil {
				t.Fatalf("%v %s", err, res.JSON)
			}
			if out.Content != tc.content || out.HasMore != tc.more || out.Meta["k"] != "v" {
				t.Errorf("got %q more=%v meta=%v", out.Content, out.HasMore, out.Meta)
			}
		})
	}
}
