package tool

import (
	"context"
	"reflect"
	"sort"
)

// A listing shows its first items and keeps all of them as a handle of
// JSON lines (PutLines). Shown as many as the caller asked for, they can
// pass the output cap (200 hits of a content search with three lines of
// context each, about 70 KB), and the runner then keeps the whole answer
// as a second handle and fits a preview of it by encoding it again and
// again: 6.5 ms of the 11 a content search spent after rg's exit, two
// handles for the agent to choose from, and a preview nested in the result's shape. FitLines
// sizes the list to the cap before the answer is encoded, from the items'
// exact lengths, so that the answer fits as it is.

// FitLines shows the first items of a listing, at most most of them and
// no more than fit the call's output cap, and returns how many it shows.
// When that is fewer than there are, every item goes to a handle of JSON
// lines, as PutLines keeps them and with its warning, which gives the
// exact handle_read call that reads on at the first item not shown;
// handle is its id.
//
// frame is the answer as it will be with shown items and handle (""
// without one), but with the listed items left out: their list empty and
// not nil, every other field as it will be, and no shorter for more items
// shown (a count or a flag may change, not shrink). The answer's JSON is then
// frame's plus each shown item's and a comma between two, which FitLines
// counts without writing a byte of them (linePlan.itemLen), for the
// types a line plan covers, or from each item's own encoding otherwise.
//
// It never counts short: an answer it sized fits the cap. When the handle
// cannot be kept, or when not even the frame fits, it shows what the
// caller asked for and leaves the answer to the runner, which keeps it as
// a handle if it is over the cap.
func FitLines[T any](ctx context.Context, call *Call, typ string, meta map[string]any, items []T, most int, frame func(shown int, handle string) any) (shown int, handle string) {
	most = max(min(most, len(items)), 0)
	listed := listedLens(items[:most])
	if most == len(items) && fitsWith(call, frame(most, ""), listed[most]) {
		return most, ""
	}
	id := putLines(ctx, call, typ, meta, items)
	if id == "" {
		return most, ""
	}
	fits := func(k int) bool {
		return fitsWith(call, frame(k, id), listed[k], shownWarning(k, len(items), id))
	}
	// fits holds up to some k and not past it: the list, the warning and
	// the frame only grow with k. Most listings fit whole (1,753 names of
	// which 200 are shown): one look settles them, where the search took
	// eight encodings of the frame and the envelope, 0.3 ms of the answer.
	k := most
	if !fits(most) {
		k = sort.Search(most, func(k int) bool { return !fits(k) }) - 1
		if k < 0 {
			k = most
		}
	}
	call.Warn("%s", shownWarning(k, len(items), id))
	return k, id
}

// fitsWith reports whether an answer whose data is frame's JSON plus
// listed bytes fits the call's cap with the warnings so far and more.
func fitsWith(call *Call, frame any, listed int, more ...string) bool {
	js, err := MarshalJSON(frame)
	if err != nil {
		return false
	}
	return len(js)+listed <= call.DataBudget(more...)
}

// unencodable is the length counted for an item that cannot be encoded:
// more than any cap, so that it is never shown (the answer's encoding
// would fail on it anyway).
const unencodable = 1 << 40

// listedLens returns, for every k up to len(items), the bytes the first k
// items add to an empty JSON list: their own and a comma between two.
func listedLens[T any](items []T) []int {
	lens := make([]int, len(items)+1)
	p, planned := planLines(reflect.TypeFor[T]())
	for i := range items {
		var n int
		if planned {
			n = p.itemLen(reflect.ValueOf(&items[i]).Elem())
		} else if js, err := MarshalJSON(&items[i]); err == nil {
			n = len(js)
		} else {
			n = unencodable
		}
		if i > 0 {
			n++ // the comma
		}
		lens[i+1] = lens[i] + n
	}
	return lens
}
