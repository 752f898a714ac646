package search

import "sync"

// bufPool keeps the checking goroutines' buffers (checkBufs) from one
// search to the next. Each search made them anew, growing its read buffer
// from 16 KiB to the size of its largest candidate file by doubling: about
// 0.9 MB allocated and zeroed for the hundred files of a few-hit search
// over GOROOT/src, two thirds of all the call allocated, and a garbage
// collection every few calls. What is kept is bounded by inMemoryMax: a
// read buffer of at most twice that (readUpTo rounds up to a power of two)
// and the 64 KiB streaming reader, per checking goroutine, and only until
// the collector empties the pool (two collections without a search). The
// Set holds the pool, so tests and servers share nothing.
type bufPool struct{ p sync.Pool }

// get returns buffers to check files with: a previous search's, or new.
func (b *bufPool) get() *checkBufs {
	if c, ok := b.p.Get().(*checkBufs); ok {
		return c
	}
	return &checkBufs{}
}

// put hands c on to a later search. A read buffer over the bound (none is,
// as readUpTo stops past inMemoryMax) is dropped rather than kept.
func (b *bufPool) put(c *checkBufs) {
	if cap(c.buf) > 2*inMemoryMax {
		c.buf = nil
	}
	c.buf = c.buf[:0]
	if c.br != nil {
		c.br.Reset(nil) // nothing of the last file is kept reachable
	}
	b.p.Put(c)
}
