package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// The envelope's text is what a model reads: code and prompts must reach it
// as written, not as \u003c escapes, in the answer and in a handle alike.
func TestEnvelopeKeepsMarkupCharacters(t *testing.T) {
	const word = `if a < b && c > "d" {`
	h := &memHandles{}
	r := &Runner{Handles: h.put, Limits: func(Spec) Limits { return Limits{Timeout: time.Second, OutputCap: 4096} }}
	for _, count := range []int{1, 500} {
		res := r.Run(context.Background(), Invocation{Def: echoDef(), Args: mustJSON(t, echoIn{Word: word, Count: count})})
		text := string(res.JSON)
		if res.Envelope.Truncated {
			text = string(h.m[res.Envelope.Handle])
		}
		if !strings.Contains(text, `if a < b && c > \"d\" {`) || strings.Contains(text, `\u00`) {
			t.Errorf("count %d: the text escapes markup: %.200s", count, text)
		}
		if !json.Valid(res.JSON) {
			t.Errorf("count %d: envelope is not JSON: %s", count, res.JSON)
		}
	}
}

func TestPutLinesOneItemPerLine(t *testing.T) {
	h := &memHandles{}
	call := &Call{handles: h.put}
	items := []echoIn{{Word: "<a>"}, {Word: "b&c", Count: 2}}
	id := PutLines(context.Background(), call, "list", map[string]any{"tool": "t"}, items, 1)
	if id == "" {
		t.Fatalf("no handle; warnings %v", call.Warnings())
	}
	want := `{"word":"<a>"}` + "\n" + `{"word":"b&c","count":2}` + "\n"
	if got := string(h.m[id]); got != want {
		t.Errorf("payload:\n%s\nwant:\n%s", got, want)
	}
	// The warning gives the exact call for the items not shown.
	next := `handle_read {"handle":"H_list_1","offset":1,"unit":"lines"}`
	if w := call.Warnings(); len(w) != 1 || !strings.Contains(w[0], next) || !strings.Contains(w[0], "1 of 2 items") {
		t.Errorf("warnings %q, want one naming 1 of 2 items and %s", w, next)
	}
	// Without a store the answer keeps its first items and says why.
	bare := &Call{}
	if id := PutLines(context.Background(), bare, "list", nil, items, 1); id != "" || len(bare.Warnings()) != 1 {
		t.Errorf("no store gave handle %q, warnings %v", id, bare.Warnings())
	}
}

// A listing that shows its items shortened keeps them whole in the handle
// and says what was cut and the call that reads them whole: from the first
// item when all are shown, and on from the last shown when some are not.
func TestPutWholeLinesSaysWhatWasCut(t *testing.T) {
	items := []echoIn{{Word: "a long word"}, {Word: "another long word"}}
	for _, tc := range []struct {
		shown int
		want  []string
	}{
		{2, []string{"words cut at 4 characters", `handle_read {"handle":"H_list_1","offset":0,"unit":"lines"}`}},
		{1, []string{"1 of 2 items are shown, words cut at 4 characters", `handle_read {"handle":"H_list_1","offset":1,"unit":"lines"}`, "offset 0"}},
	} {
		h := &memHandles{}
		call := &Call{handles: h.put}
		id := PutWholeLines(context.Background(), call, "list", nil, items, tc.shown, "words cut at 4 characters")
		if got, want := string(h.m[id]), `{"word":"a long word"}`+"\n"+`{"word":"another long word"}`+"\n"; got != want {
			t.Errorf("shown %d: payload %q, want %q", tc.shown, got, want)
		}
		w := call.Warnings()
		if len(w) != 1 {
			t.Fatalf("shown %d: warnings %q", tc.shown, w)
		}
		for _, s := range tc.want {
			if !strings.Contains(w[0], s) {
				t.Errorf("shown %d: warning %q lacks %q", tc.shown, w[0], s)
			}
		}
	}
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
