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

// hostile is text whose JSON form is far longer than its bytes: quotes,
// backslashes, control bytes, line separators, multi-byte UTF-8.
func hostile(size int) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "%d \"q\\\" \x01\x1f\t\u2028 é中🙂 %s\n", i, strings.Repeat("\\\"", i%50))
	}
	return b.String()
}

type fitEnv struct {
	st *store.Store
	d  *tool.Def
}

func newFitEnv(t *testing.T) *fitEnv {
	t.Helper()
	st, err := store.Open(context.Background(), &store.Options{Path: filepath.Join(t.TempDir(), "s.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &fitEnv{st: st, d: New(st).handleRead()}
}

func (e *fitEnv) put(t *testing.T, payload string) string {
	t.Helper()
	h, err := e.st.PutHandle(context.Background(), "test", map[string]any{"path": "/srv/x"}, []byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	return h.ID
}

// run calls handle_read under an output cap and checks what every answer
// must be: valid against the schema, a success unless wantErr, and whole
// (envelope included) within the cap.
func (e *fitEnv) run(t *testing.T, capBytes int, args map[string]any) (handleReadOut, tool.Result) {
	t.Helper()
	raw, _ := json.Marshal(args)
	r := &tool.Runner{Host: "host", Version: "v1.2.3", Limits: func(tool.Spec) tool.Limits {
		return tool.Limits{Timeout: 10e9, OutputCap: capBytes}
	}}
	res := r.Run(context.Background(), tool.Invocation{Def: e.d, Args: raw})
	if err := tool.ValidateEnvelope(e.d, res.JSON); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	if res.Err != nil {
		t.Fatalf("%v: %s: %s", args, res.Err.Code, res.Err.Message)
	}
	if res.Envelope.Truncated {
		t.Fatalf("%v: the page itself went over the cap of %d: %q", args, capBytes, res.Envelope.Warnings)
	}
	if len(res.JSON) > capBytes {
		t.Fatalf("%v: the answer is %d bytes, over the cap of %d", args, len(res.JSON), capBytes)
	}
	var out handleReadOut
	if err := json.Unmarshal(res.Envelope.Data, &out); err != nil {
		t.Fatal(err)
	}
	return out, res
}

// page reads a handle to its end passing only next_offset on.
func (e *fitEnv) page(t *testing.T, capBytes int, id string, args map[string]any) (string, int) {
	t.Helper()
	var b strings.Builder
	var offset int64
	for pages := 1; pages < 100000; pages++ {
		a := map[string]any{"handle": id, "offset": offset}
		for k, v := range args {
			a[k] = v
		}
		out, _ := e.run(t, capBytes, a)
		b.WriteString(out.Content)
		if out.EOF != (out.NextOffset == out.Total) || out.EOF == out.HasMore {
			t.Fatalf("%v: eof %v, has_more %v, next_offset %d of %d", a, out.EOF, out.HasMore, out.NextOffset, out.Total)
		}
		if out.EOF {
			return b.String(), pages
		}
		if out.NextOffset <= offset {
			t.Fatalf("%v: no progress (next_offset %d)", a, out.NextOffset)
		}
		offset = out.NextOffset
	}
	t.Fatal("never reached eof")
	return "", 0
}

func TestHandleReadFitsTheCap(t *testing.T) {
	e := newFitEnv(t)
	for _, capBytes := range []int{1024, 4096, 64 << 10, 1 << 20} {
		// Some 20 pages or more at each cap: enough to cross every kind of
		// boundary, few enough for a small cap to page quickly.
		text := hostile(min(300<<10, 20*capBytes))
		id := e.put(t, text)
		for _, args := range []map[string]any{
			{},
			{"unit": "bytes"},
			{"unit": "lines", "limit": 2000},
			{"unit": "bytes", "limit": 1048576},
		} {
			t.Run(fmt.Sprintf("cap %d %v", capBytes, args), func(t *testing.T) {
				got, pages := e.page(t, capBytes, id, args)
				if got != text {
					t.Fatalf("%d pages put together differ from the payload (%d bytes, want %d)", pages, len(got), len(text))
				}
			})
		}
	}
	small := hostile(4 << 10)
	if got, _ := e.page(t, 4096, e.put(t, small), map[string]any{"unit": "bytes", "limit": 7}); got != small {
		t.Errorf("7-byte pages put together differ from the payload")
	}
}

// At the default cap, the schema's maximum limit gives a full page, not a
// truncated answer with yet another handle.
func TestHandleReadMaximumLimitAnswersAPage(t *testing.T) {
	e := newFitEnv(t)
	text := hostile(2 << 20)
	id := e.put(t, text)
	out, res := e.run(t, 64<<10, map[string]any{"handle": id, "unit": "bytes", "limit": 1048576})
	if out.Returned == 0 || out.EOF || out.NextOffset != out.Returned {
		t.Fatalf("returned %d, next_offset %d, eof %v", out.Returned, out.NextOffset, out.EOF)
	}
	// The page is shortened to what fits, not to some fraction of it.
	if len(res.JSON) < 60<<10 {
		t.Errorf("the page is only %d bytes of a 64 KiB cap", len(res.JSON))
	}
}

// A line longer than a page is cut, and the answer says where the rest of
// it starts, by bytes, and how to go on by lines.
func TestHandleReadCutsALongLine(t *testing.T) {
	e := newFitEnv(t)
	long := strings.Repeat("\"é", 20000)
	text := "first\n" + long + "\nlast\n"
	id := e.put(t, text)
	out, res := e.run(t, 4096, map[string]any{"handle": id, "offset": 1})
	if !out.LineCut || out.Returned != 1 || out.NextOffset != 2 || out.Content == "" || !strings.HasPrefix(long, out.Content) {
		t.Fatalf("line_cut %v, returned %d, next_offset %d, content %d bytes", out.LineCut, out.Returned, out.NextOffset, len(out.Content))
	}
	rest := int64(len("first\n") + len(out.Content))
	if out.LineRestOffset != rest {
		t.Errorf("line_rest_offset = %d, want %d", out.LineRestOffset, rest)
	}
	want := fmt.Sprintf(`handle_read {"handle":%q,"offset":%d,"unit":"bytes"}`, id, rest)
	if len(res.Envelope.Warnings) != 1 || !strings.Contains(res.Envelope.Warnings[0], want) {
		t.Errorf("warnings %q lack the call for the rest of the line, %s", res.Envelope.Warnings, want)
	}
	got, _ := e.page(t, 4096, id, map[string]any{"unit": "bytes"})
	if got != text {
		t.Errorf("paging by bytes at the same cap does not give the payload back")
	}
}

// Limits beyond the schema's are refused with the bounds, not silently cut.
func TestHandleReadLimitBounds(t *testing.T) {
	e := newFitEnv(t)
	id := e.put(t, "a\nb\n")
	for _, args := range []string{
		`{"handle":"` + id + `","limit":2001}`,
		`{"handle":"` + id + `","unit":"bytes","limit":1048577}`,
	} {
		res := (&tool.Runner{}).Run(context.Background(), tool.Invocation{Def: e.d, Args: json.RawMessage(args)})
		if res.Err == nil || (res.Err.Code != tool.InvalidArgument && res.Err.Code != tool.InvalidParams) {
			t.Errorf("%s: want a refusal, got %s", args, res.JSON)
		}
	}
}
