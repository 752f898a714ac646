package repl

// ring keeps the newest bytes of a session's output, addressed by absolute
// offsets into the whole stream, so a reader can page forward from where it
// stopped and learn exactly how much fell out of the window before it got
// there. It is not safe for concurrent use: the session's mutex guards it.
type ring struct {
	buf   []byte
	total int64 // bytes ever written; the stream's end offset
}

func newRing(size int) *ring { return &ring{buf: make([]byte, size)} }

// write appends p, overwriting the oldest bytes once the ring is full.
func (r *ring) write(p []byte) {
	size := int64(len(r.buf))
	if int64(len(p)) > size {
		r.total += int64(len(p)) - size
		p = p[len(p)-int(size):]
	}
	for len(p) > 0 {
		at := int(r.total % size)
		n := copy(r.buf[at:], p)
		p = p[n:]
		r.total += int64(n)
	}
}

// start is the oldest offset still held.
func (r *ring) start() int64 { return max(0, r.total-int64(len(r.buf))) }

// end is the offset the next byte written will have.
func (r *ring) end() int64 { return r.total }

// read returns up to limit bytes from off. An offset before the window is
// moved to its start and the bytes skipped are reported as dropped; one
// past the end is moved to the end.
func (r *ring) read(off int64, limit int) (data []byte, from, dropped int64) {
	if s := r.start(); off < s {
		dropped = s - off
		off = s
	}
	off = min(off, r.total)
	n := min(r.total-off, int64(limit))
	data = make([]byte, 0, n)
	size := int64(len(r.buf))
	for n > 0 {
		at := off % size
		chunk := min(n, size-at)
		data = append(data, r.buf[at:at+chunk]...)
		off += chunk
		n -= chunk
	}
	return data, off - int64(len(data)), dropped
}
