package tool

import (
	"fmt"
	"reflect"
	"sync/atomic"
	"testing"
)

// Every index is counted once, by whichever goroutine took its chunk, and
// the sum is the serial one, for any count of items around the chunks'
// edges and any number of workers, more than chunks included.
func TestSumInChunksCountsEveryIndexOnce(t *testing.T) {
	for _, chunk := range []int{1, 3, 64} {
		for _, n := range []int{0, 1, chunk - 1, chunk, chunk + 1, 2*chunk - 1, 2 * chunk, 2*chunk + 1, 5*chunk + 2} {
			for _, workers := range []int{1, 2, 3, 16} {
				t.Run(fmt.Sprintf("chunk=%d/n=%d/workers=%d", chunk, n, workers), func(t *testing.T) {
					seen := make([]atomic.Int32, n)
					got := sumInChunks(n, chunk, workers, func(lo, hi int) int64 {
						var s int64
						for i := lo; i < hi; i++ {
							seen[i].Add(1)
							s += int64(i + 1)
						}
						return s
					})
					if want := int64(n * (n + 1) / 2); got != want {
						t.Errorf("sum %d, want %d", got, want)
					}
					for i := range seen {
						if c := seen[i].Load(); c != 1 {
							t.Fatalf("index %d counted %d times", i, c)
						}
					}
				})
			}
		}
	}
}

// linesLen counted in chunks on several goroutines is the serial count,
// the length appendLines writes and the length of encoding/json's lines,
// for hostile strings, item counts around the chunks' edges, 0 and 1 item,
// and every shape of item a plan writes (plannedItems).
func TestLinesLenInChunksMatchesTheEncoding(t *testing.T) {
	p, ok := planLines(reflect.TypeFor[planned]())
	if !ok {
		t.Fatal("planned has no plan")
	}
	all := plannedItems()
	c := linesLenChunk
	for _, n := range []int{0, 1, 2, c - 1, c, c + 1, 2*c - 1, 2 * c, 2*c + 1, 7*c + 5, len(all)} {
		off := n * 7 % (len(all) - n + 1) // a window of the hostile items, not always the first
		items := all[off : off+n]
		want := int64(len(encodingJSONLines(t, items)))
		if written := int64(len(appendLines(&p, items))); written != want {
			t.Fatalf("%d items: appendLines wrote %d bytes, encoding/json %d", n, written, want)
		}
		for _, workers := range []int{1, 2, 3, 8} {
			if got := linesLenOn(&p, items, workers); got != want {
				t.Errorf("%d items from %d on %d workers: sized %d, encoded %d", n, off, workers, got, want)
			}
		}
	}
}

// A count that panics on a helper goroutine panics the caller, as it
// would have counting alone, so that the runner turns it into the call's
// error (run.go) instead of the panic ending the server.
func TestSumInChunksPanicReachesTheCaller(t *testing.T) {
	for range 100 {
		func() {
			defer func() {
				if p := recover(); p != "counting" {
					t.Fatalf("recovered %v; want the count's panic", p)
				}
			}()
			sumInChunks(64, 1, 4, func(lo, hi int) int64 { panic("counting") })
			t.Fatal("sumInChunks returned")
		}()
	}
}
