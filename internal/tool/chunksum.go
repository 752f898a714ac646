package tool

import (
	"sync/atomic"
)

// sumInChunks is the sum of count over [0, n) cut into chunks of chunk
// indexes, [lo, hi) each, counted by the calling goroutine and up to
// workers-1 others. A goroutine takes the next chunk not yet taken until
// none is left, so the caller never waits for a helper that has not been
// scheduled: it counts what the helpers did not take, and waits only for
// the chunks they are counting. count must be safe to run concurrently on
// distinct chunks. The sum does not depend on workers or chunk.
func sumInChunks(n, chunk, workers int, count func(lo, hi int) int64) int64 {
	chunks := (n + chunk - 1) / chunk
	if chunks <= 1 || workers <= 1 {
		return count(0, n)
	}
	var (
		next, left atomic.Int64 // the next chunk to take; chunks not yet counted
		sum        atomic.Int64
		done       = make(chan struct{}) // closed when left reaches 0
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
				close(done)
			}
		}
	}
	for range min(workers, chunks) - 1 {
		go work()
	}
	work()
	<-done
	return sum.Load()
}
