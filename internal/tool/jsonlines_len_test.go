package tool

import (
	"bytes"
	"context"
	"math"
	"reflect"
	"strconv"
	"testing"
)

// linesLen is the length appendLines writes, item by item, for every shape
// a plan writes and every hostile string (plannedItems, which
// TestJSONLinesMatchesEncodingJSON holds appendLines to encoding/json
// with).
func TestLinesLenMatchesAppendLines(t *testing.T) {
	p, ok := planLines(reflect.TypeFor[planned]())
	if !ok {
		t.Fatal("planned has no plan")
	}
	items := plannedItems()
	for i := range items {
		one := items[i : i+1]
		if got, want := linesLen(&p, one), int64(len(appendLines(&p, one))); got != want {
			t.Fatalf("item %d (%q): sized %d, written %d: %s", i, items[i].Path, got, want, appendLines(&p, one))
		}
	}
	if got, want := linesLen(&p, items), int64(len(appendLines(&p, items))); got != want {
		t.Errorf("all %d items: sized %d, written %d", len(items), got, want)
	}
}

// JSONStringLen skips plain bytes eight at a time; a byte that needs a
// look is counted at every offset from a run's start.
func TestJSONStringLenMatchesAppendJSONString(t *testing.T) {
	for _, s := range hostileStrings() {
		if got, want := JSONStringLen(s), len(appendJSONString(nil, s)); got != want {
			t.Errorf("JSONStringLen(%q) = %d, appendJSONString writes %d", s, got, want)
		}
	}
}

func TestIntLen(t *testing.T) {
	for _, v := range []int64{0, 1, 9, 10, -1, -9, -10, 99, 100, math.MaxInt64, math.MinInt64, math.MinInt64 + 1} {
		if got, want := intLen(v), len(strconv.FormatInt(v, 10)); got != want {
			t.Errorf("intLen(%d) = %d, want %d", v, got, want)
		}
	}
	for _, v := range []uint64{0, 9, 10, math.MaxUint64, math.MaxUint64 / 10} {
		if got, want := uintLen(v), len(strconv.FormatUint(v, 10)); got != want {
			t.Errorf("uintLen(%d) = %d, want %d", v, got, want)
		}
	}
}

// laterSink stands in for the store's PutHandleLater: it keeps what it was
// given, to encode when the test says.
type laterSink struct {
	size   int64
	encode func() []byte
}

func (l *laterSink) put(_ context.Context, typ string, _ map[string]any, size int64, encode func() []byte) (string, error) {
	l.size, l.encode = size, encode
	return "H_" + typ + "_later", nil
}

// With a store that writes after the answer, PutLines hands it the lines'
// exact size and a writer of the very bytes JSONLines writes, of the items
// as they were: the caller may change its slice once PutLines returned.
// The answer's link to the handle gives that size.
func TestPutLinesWritesTheSameBytesLater(t *testing.T) {
	h, later := &memHandles{}, &laterSink{}
	call := &Call{handles: h.put, later: later.put}
	items := []echoIn{{Word: "<a> \"quoted\"\n"}, {Word: "b&c\xff", Count: 2}, {Word: "\u2028"}}
	want, err := JSONLines(items)
	if err != nil {
		t.Fatal(err)
	}
	id := PutLines(context.Background(), call, "list", nil, items, 1)
	if id != "H_list_later" || len(h.m) != 0 {
		t.Fatalf("handle %q, inline puts %v; want the later sink's", id, h.m)
	}
	items[0].Word, items[1] = "changed", echoIn{}
	got := later.encode()
	if !bytes.Equal(got, want) || later.size != int64(len(want)) {
		t.Errorf("written later: %q (sized %d); want %q (%d bytes)", got, later.size, want, len(want))
	}
	if links := call.Links(); len(links) != 1 || links[0].Size != int64(len(want)) {
		t.Errorf("links %+v; want one of %d bytes", links, len(want))
	}
}

// An item type with a pointer field, whose target a copy would share, and
// one encoding/json writes, are written before PutLines returns.
func TestPutLinesWritesAtOnceWhatACopyWouldShare(t *testing.T) {
	type pointed struct {
		Name *string `json:"name"`
	}
	type nested struct {
		Inner echoIn `json:"inner"`
	}
	name := "n"
	for _, put := range []func(*Call) string{
		func(c *Call) string {
			return PutLines(context.Background(), c, "list", nil, []pointed{{Name: &name}}, 0)
		},
		func(c *Call) string { return PutLines(context.Background(), c, "list", nil, []nested{{}}, 0) },
	} {
		h, later := &memHandles{}, &laterSink{}
		call := &Call{handles: h.put, later: later.put}
		if id := put(call); id == "" || h.m[id] == nil || later.encode != nil {
			t.Errorf("handle %q, inline %q, later %v: want it written inline", id, h.m[id], later.encode != nil)
		}
	}
}
