package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// fitOut is a listing's answer: its shown items and what says there are
// more.
type fitOut[T any] struct {
	Items     []T    `json:"items"`
	Total     int    `json:"total"`
	Truncated bool   `json:"truncated"`
	Handle    string `json:"handle,omitempty"`
}

// unplanned is an item no line plan covers: FitLines counts it from its
// own encoding.
type unplanned struct {
	Words []string       `json:"words"`
	Tags  map[string]int `json:"tags,omitempty"`
}

// fitLister is a listing tool over items, showing at most most of them
// and the rest in a handle, sized by FitLines; a warning given before
// the listing stands for the engines' own.
func fitLister[T any](items []T, most int, before string) *Def {
	return New(Spec{Name: "lister", Title: "List", Description: "List items.", Kind: ReadOnly},
		func(ctx context.Context, call *Call, _ struct{}) (fitOut[T], error) {
			if before != "" {
				call.Warn("%s", before)
			}
			frame := func(shown int, handle string) fitOut[T] {
				return fitOut[T]{Items: []T{}, Total: len(items), Truncated: shown < len(items), Handle: handle}
			}
			shown, handle := FitLines(ctx, call, "list", nil, items, most, func(n int, h string) any { return frame(n, h) })
			out := frame(shown, handle)
			out.Items = items[:shown]
			return out, nil
		})
}

// fitAnswerBytes is the length, encoded as the runner encodes it, of the
// answer that shows the first k items: with PutLines' warning and the
// handle when k is fewer than all of them.
func fitAnswerBytes[T any](t *testing.T, items []T, k int, before, handle string) int {
	t.Helper()
	out := fitOut[T]{Items: append([]T{}, items[:k]...), Total: len(items), Truncated: k < len(items)}
	var warnings []string
	if before != "" {
		warnings = append(warnings, before)
	}
	if k < len(items) {
		out.Handle = handle
		warnings = append(warnings, shownWarning(k, len(items), handle))
	}
	data, err := MarshalJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	js, err := Envelope{Success: true, Data: data, Warnings: warnings}.JSON()
	if err != nil {
		t.Fatal(err)
	}
	return len(js)
}

// checkFitLines runs the lister under caps at the boundary of each k in
// ks: a cap of exactly the answer with k items shows k of them, one byte
// less shows k-1. Every answer is within its cap, carries its data as it
// is (no data_preview, no second handle), its items the first ones.
func checkFitLines[T any](t *testing.T, items []T, most int, before string, ks []int) {
	t.Helper()
	const id = "H_list_1"
	d := fitLister(items, most, before)
	run := func(capBytes int) (fitOut[T], Result) {
		t.Helper()
		h := &memHandles{}
		r := &Runner{Handles: h.put, Limits: func(Spec) Limits { return Limits{Timeout: time.Minute, OutputCap: capBytes} }}
		res := r.Run(context.Background(), Invocation{Def: d, Args: json.RawMessage(`{}`)})
		if res.Err != nil || res.Envelope.Truncated || res.Envelope.DataPreview != nil {
			t.Fatalf("cap %d: the answer was not sized to fit: %.300s", capBytes, res.JSON)
		}
		if len(res.JSON) > capBytes {
			t.Fatalf("cap %d: the answer takes %d bytes", capBytes, len(res.JSON))
		}
		var out fitOut[T]
		if err := json.Unmarshal(res.Envelope.Data, &out); err != nil {
			t.Fatal(err)
		}
		if len(out.Items) < len(items) && (out.Handle != id || h.m[id] == nil) {
			t.Fatalf("cap %d: %d of %d items shown, handle %q", capBytes, len(out.Items), len(items), out.Handle)
		}
		return out, res
	}
	for _, k := range ks {
		for _, c := range []struct{ capBytes, want int }{
			{fitAnswerBytes(t, items, k, before, id), k},
			{fitAnswerBytes(t, items, k, before, id) - 1, k - 1},
		} {
			out, res := run(c.capBytes)
			if len(out.Items) != c.want {
				t.Fatalf("cap %d: %d items shown, want %d (%d bytes)", c.capBytes, len(out.Items), c.want, len(res.JSON))
			}
			var raw struct{ Items json.RawMessage }
			if err := json.Unmarshal(res.Envelope.Data, &raw); err != nil {
				t.Fatal(err)
			}
			if want, _ := MarshalJSON(append([]T{}, items[:c.want]...)); string(raw.Items) != string(want) {
				t.Fatalf("cap %d: the items shown are not the first %d", c.capBytes, c.want)
			}
		}
	}
}

// FitLines counts the answer to the byte, however the items' strings
// encode (quotes, control bytes, invalid UTF-8, U+2028), for the types a
// line plan covers and the others, behind a warning given before: at
// each k, an answer of k items fits a cap of its exact size, and with
// one byte less, k-1 are shown.
func TestFitLinesCountsToTheByte(t *testing.T) {
	items := plannedItems()
	checkFitLines(t, items, len(items), "", []int{1, 2, 3, 9, 10, 11, 99, 100, 101, 400, 401, 3000})
	checkFitLines(t, items, 500, "the search stopped early: \"a\"\n\u2028", []int{1, 50, 499})

	var words []unplanned
	for i, s := range hostileStrings() {
		u := unplanned{Words: []string{s, strings.ToUpper(s)}}
		if i%3 == 0 {
			u.Tags = map[string]int{s: i, "b": -i}
		}
		words = append(words, u)
	}
	checkFitLines(t, words, len(words), "", []int{1, 10, 100, 1000, 2000})
}

// When every item fits, none goes to a handle; one byte less and the
// listing shows what fits with PutLines' warning.
func TestFitLinesAllShownWithoutHandle(t *testing.T) {
	items := plannedItems()[:40]
	all := fitAnswerBytes(t, items, len(items), "", "")
	h := &memHandles{}
	for _, c := range []struct {
		capBytes   int
		wantHandle bool
	}{{all, false}, {all - 1, true}} {
		r := &Runner{Handles: h.put, Limits: func(Spec) Limits { return Limits{Timeout: time.Minute, OutputCap: c.capBytes} }}
		res := r.Run(context.Background(), Invocation{Def: fitLister(items, 100, ""), Args: json.RawMessage(`{}`)})
		var out fitOut[planned]
		if err := json.Unmarshal(res.Envelope.Data, &out); err != nil {
			t.Fatalf("cap %d: %v: %.300s", c.capBytes, err, res.JSON)
		}
		if got := out.Handle != ""; got != c.wantHandle || len(res.JSON) > c.capBytes {
			t.Errorf("cap %d: handle %q, %d of %d shown, %d bytes", c.capBytes, out.Handle, len(out.Items), len(items), len(res.JSON))
		}
		if c.wantHandle && (len(res.Envelope.Warnings) != 1 || !strings.Contains(res.Envelope.Warnings[0], `"offset":39,`)) {
			t.Errorf("cap %d: warnings %q", c.capBytes, res.Envelope.Warnings)
		}
	}
}

// A handle that cannot be kept leaves the listing as the caller asked,
// for the runner's over-cap path: the answer still fits, as a preview.
func TestFitLinesWithoutHandleLeavesItToTheRunner(t *testing.T) {
	items := plannedItems()[:200]
	r := &Runner{Handles: func(context.Context, string, map[string]any, []byte) (string, error) {
		return "", Errorf(Internal, "the store is full")
	}, Limits: func(Spec) Limits { return Limits{Timeout: time.Minute, OutputCap: 4096} }}
	res := r.Run(context.Background(), Invocation{Def: fitLister(items, 100, ""), Args: json.RawMessage(`{}`)})
	if len(res.JSON) > 4096 || !strings.Contains(string(res.JSON), "the full list could not be kept as a handle") {
		t.Errorf("%d bytes: %.500s", len(res.JSON), res.JSON)
	}
}
