package tool

import (
	"context"
	"errors"
	"reflect"
	"runtime"
	"slices"
)

// linesLen is the exact length of appendLines(p, items), found without
// writing a byte: what lets a handle be sized, checked against the store's
// bounds and linked in the answer before its lines are written, after the
// answer (putLines). For search_content's 2,500 hits, about 1 MB, the
// writing cost the call 1.3 to 4 ms; sizing reads each string once, eight
// plain bytes at a time (JSONStringLen). It still took 1 to 2.5 ms of
// that call's path, on one CPU while the other sat idle once rg had
// exited: many items are counted in chunks on every CPU (linesLenOn),
// which halves that when the other CPU is awake and takes about 0.1 ms
// off when it must first wake up (bench/RESULTS.md).
func linesLen[T any](p *linePlan, items []T) int64 {
	return linesLenOn(p, items, runtime.GOMAXPROCS(0))
}

// linesLenChunk is the items a goroutine of linesLen counts at a time:
// tens of microseconds of search hits, so that starting a goroutine is
// worth it and the last chunk holds back the others little.
const linesLenChunk = 64

// linesLenOn is linesLen counted on up to workers goroutines; the sum is
// the same for any number.
func linesLenOn[T any](p *linePlan, items []T, workers int) int64 {
	return sumInChunks(len(items), linesLenChunk, workers, func(lo, hi int) int64 {
		var n int64
		for i := lo; i < hi; i++ {
			n += int64(p.itemLen(reflect.ValueOf(&items[i]).Elem())) + 1 // the '\n'
		}
		return n
	})
}

// itemLen is the length of appendItem(v): every choice appendItem makes,
// made the same way.
func (p *linePlan) itemLen(v reflect.Value) int {
	n, fields := 2, 0 // the braces
	for i := range p.fields {
		f := &p.fields[i]
		fv := v.Field(f.index)
		if f.pointer {
			if fv.IsNil() {
				if !f.omitEmpty {
					n, fields = n+len(f.key)+len("null"), fields+1
				}
				continue
			}
			fv = fv.Elem()
		} else if f.omitEmpty && fv.IsZero() {
			continue
		}
		n, fields = n+len(f.key), fields+1
		switch f.kind {
		case reflect.String:
			n += JSONStringLen(fv.String())
		case reflect.Bool:
			if fv.Bool() {
				n += len("true")
			} else {
				n += len("false")
			}
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n += intLen(fv.Int())
		default:
			n += uintLen(fv.Uint())
		}
	}
	if fields > 1 {
		n += fields - 1 // the commas
	}
	return n
}

// intLen is the length of strconv.FormatInt(v, 10).
func intLen(v int64) int {
	if v < 0 {
		// -v overflows for the smallest int64, whose digits uintLen
		// still counts right as a uint64.
		return 1 + uintLen(uint64(-(v+1))+1)
	}
	return uintLen(uint64(v))
}

// uintLen is the length of strconv.FormatUint(v, 10).
func uintLen(v uint64) int {
	n := 1
	for v >= 10 {
		v /= 10
		n++
	}
	return n
}

// laterLines is how putLines may write items after the answer: a copy of
// them, which the caller may change once PutLines returned, their exact
// size, and the writing. ok is false for a type the plan does not cover,
// and for one with a pointer field, whose target a copy would still share.
func laterLines[T any](items []T) (size int64, encode func() []byte, ok bool) {
	p, ok := planLines(reflect.TypeFor[T]())
	if !ok || slices.ContainsFunc(p.fields, func(f lineField) bool { return f.pointer }) {
		return 0, nil, false
	}
	own := slices.Clone(items)
	return linesLen(&p, own), func() []byte { return appendLines(&p, own) }, true
}

// errNotLater says putLinesLater wrote nothing: the server does not write
// handles after the answer, or the items' type has no plan without
// pointers.
var errNotLater = errors.New("not written after the answer")

// putLinesLater keeps items as a handle whose lines are sized now and
// written after the answer: the same bytes, and the same size in the link
// and against the store's bounds, as writing them first.
func putLinesLater[T any](ctx context.Context, call *Call, typ string, meta map[string]any, items []T) (string, error) {
	if call.later == nil {
		return "", errNotLater
	}
	size, encode, ok := laterLines(items)
	if !ok {
		return "", errNotLater
	}
	return call.putHandleLater(ctx, typ, meta, size, encode)
}
