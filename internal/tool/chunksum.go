package tool

import (
	"sync"
	"sync/atomic"
)

// sumInChunks is the sum of count over [0, n) cut into chunks of chunk
// indexes, [lo, hi) each, counted by the calling goroutine and up to
// workers-1 others. A goroutine takes the next chunk not yet taken until
// none is left, so the caller never waits for a helper that has not been
// scheduled: it counts what the helpers did not take, and waits only for
// the chunks they are counting. count must be safe to run concurrently on
// distinct chunks. The sum does not depend on workers or chunk. A panic of
// count on a helper is raised again on the caller, as if it had counted
// alone: the runner turns a handler's panic into the call's error, which
// it cannot do for another goroutine's.
func sumInChunks(n, chunk, workers int, count func(lo, hi int) int64) int64 {
	chunks := (n + chunk - 1) / chunk
	if chunks <= 1 || workers <= 1 {
		return count(0, n)
	}
	var (
		next, left atomic.Int64 // the next chunk to take; chunks not yet counted
		sum        atomic.Int64
		done       = make(chan struct{}) // closed when left reaches 0, or a helper panicked
		closeDone  sync.Once
		panicked   atomic.Pointer[any] // the first helper's panic
	)
	left.Store(int64(chunks))
	work := func() {
		for {
			c := int(next.Add(1) - 1)
			if c >= chunks {
				return
			}
			lo := c * chunk
			sum.Add(count(lo, min(lo+chunk, n)))
			if left.Add(-1) == 0 {
				closeDone.Do(func() { close(done) })
			}
		}
	}
	help := func() {
		defer func() {
			if p := recover(); p != nil {
				panicked.CompareAndSwap(nil, &p)
				closeDone.Do(func() { close(done) })
			}
		}()
		work()
	}
	for range min(workers, chunks) - 1 {
		go help()
	}
	work()
	<-done
	if p := panicked.Load(); p != nil {
		panic(*p)
	}
	return sum.Load()
}
