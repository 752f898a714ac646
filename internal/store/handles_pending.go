package store

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Bounds of the handles written after their call answered. A result is
// held in memory until it is committed: at most maxPendingBytes of them
// and maxPendingWrites at once; a put beyond either is written inline, as
// PutHandle does, so a burst of large results costs the calls time instead
// of the server memory. 32 MiB holds thirty searches' 2,500 hits.
const (
	maxPendingBytes  = 32 << 20
	maxPendingWrites = 64
	// maxFailedKept bounds the failed writes remembered to tell a reader
	// why its handle is missing; beyond it the oldest is forgotten, and its
	// handle reads as not found.
	maxFailedKept = 1024
)

// ErrHandleNotKept says a handle was given out but its write failed
// afterwards: the result it names was never stored.
var ErrHandleNotKept = errors.New("handle not kept")

// pendingHandles are the handles whose ID is given out and whose write is
// running or has failed. Every reader of a handle (ReadWindow, Handle,
// Handles, DeleteHandle) waits for its write first, so an ID handed to an
// agent never reads as "not found" because its row is not yet committed,
// and a failed write reads as ErrHandleNotKept until the handle would have
// expired.
type pendingHandles struct {
	mu       sync.Mutex
	writes   map[string]*pendingWrite
	bytes    int64 // payload bytes of writes
	failed   map[string]failedWrite
	closed   bool
	wg       sync.WaitGroup
	maxBytes int64 // maxPendingBytes; tests lower it
	maxCount int
	now      func() time.Time // the store's clock, against which failures expire

	deferred, inline, failures atomic.Int64
}

type pendingWrite struct {
	done    chan struct{} // closed once the write ended
	err     error         // set before done is closed
	size    int64
	waiters atomic.Int32 // readers waiting now (tests watch it)
}

type failedWrite struct {
	err     error
	expires time.Time
}

func newPendingHandles(now func() time.Time) *pendingHandles {
	return &pendingHandles{
		now:      now,
		writes:   map[string]*pendingWrite{},
		failed:   map[string]failedWrite{},
		maxBytes: maxPendingBytes,
		maxCount: maxPendingWrites,
	}
}

// HandleWriteStats counts the handles put since Open by how they were
// written, for /metrics: after the answer (Deferred), on the call's path
// because the pending writes were full or the store closing (Inline), and
// the deferred writes that failed (Failed, logged; their handles read as
// ErrHandleNotKept). Pending and PendingBytes are the writes running now.
type HandleWriteStats struct {
	Deferred, Inline, Failed int64
	Pending                  int
	PendingBytes             int64
}

// HandleWriteStats reports how handles have been written since Open.
func (s *Store) HandleWriteStats() HandleWriteStats {
	p := s.pending
	p.mu.Lock()
	defer p.mu.Unlock()
	return HandleWriteStats{Deferred: p.deferred.Load(), Inline: p.inline.Load(), Failed: p.failures.Load(), Pending: len(p.writes), PendingBytes: p.bytes}
}

// PutHandleAsync is PutHandle answering before the write: it checks the
// payload against the budget, chooses a free ID and returns the handle,
// then writes it in the background, so that the call keeping a large
// result answers without waiting for SQLite. Readers of the handle wait
// for the write (see pendingHandles); a write that fails is logged,
// counted, and read as ErrHandleNotKept. Past the bounds of pending writes
// (maxPendingBytes, maxPendingWrites), or once the store is closing, it
// writes inline as PutHandle does. payload must not change afterwards.
func (s *Store) PutHandleAsync(ctx context.Context, typ string, meta map[string]any, payload []byte) (Handle, error) {
	nh, err := s.newHandle(typ, meta, payload)
	if err != nil {
		return Handle{}, err
	}
	w, err := s.reserveID(ctx, &nh)
	switch {
	case err != nil:
		return Handle{}, err
	case w == nil: // no room: described once, no second line index
		return s.putInline(ctx, &nh, payload)
	}
	go s.writePending(&nh, w, func() ([]byte, error) { return payload, nil })
	return nh.h, nil
}

// PutHandleLater is PutHandleAsync for a payload that encode writes, once,
// after the call answered: a large result's encoding (a megabyte of JSON
// lines for 2,500 hits) is then off the answer's path as its write is.
// size must be exactly the length encode returns; the budget and the
// bounds of pending writes are checked against it before encode runs.
// Without room for a pending write, encode runs before it returns and the
// handle is written inline. It returns the handle's ID.
func (s *Store) PutHandleLater(ctx context.Context, typ string, meta map[string]any, size int64, encode func() []byte) (string, error) {
	nh, err := s.describeHandle(typ, meta, size)
	if err != nil {
		return "", err
	}
	w, err := s.reserveID(ctx, &nh)
	if err != nil {
		return "", err
	}
	if w == nil {
		payload, err := encodedPayload(&nh, encode)
		if err != nil {
			return "", err
		}
		h, err := s.putInline(ctx, &nh, payload)
		return h.ID, err
	}
	go s.writePending(&nh, w, func() ([]byte, error) { return encodedPayload(&nh, encode) })
	return nh.h.ID, nil
}

// encodedPayload runs encode, holds it to the size nh was described with,
// which the budget and the pending bounds were checked against, and gives
// nh the lines the payload holds.
func encodedPayload(nh *newHandleRow, encode func() []byte) ([]byte, error) {
	payload := encode()
	if int64(len(payload)) != nh.h.Size {
		return nil, fmt.Errorf("storing a handle: its payload was sized %d bytes but encoded as %d", nh.h.Size, len(payload))
	}
	nh.h.Lines, nh.index = buildLineIndex(payload)
	return payload, nil
}

// reserveID chooses a free ID for nh and reserves its pending write. A nil
// write and no error mean there is no room for one (bounds, closing): the
// caller writes inline, counted so.
func (s *Store) reserveID(ctx context.Context, nh *newHandleRow) (*pendingWrite, error) {
	for attempt := 0; attempt < 4; attempt++ {
		id, checked := s.ahead.take(nh.h.Type, nh.h.Created)
		if !checked {
			var err error
			if id, err = newID(nh.h.Type, nh.h.Created); err != nil {
				return nil, err
			}
		}
		w, room := s.pending.reserve(id, nh.h.Size)
		if !room {
			s.pending.inline.Add(1)
			return nil, nil
		}
		if w == nil {
			continue // the ID is pending already
		}
		if !checked { // one checked ahead was checked against the committed handles
			if taken, err := s.ids.taken(ctx, id); err != nil || taken {
				s.pending.release(id, w, nil, time.Time{})
				if err != nil {
					return nil, err
				}
				continue
			}
		}
		nh.h.ID = id
		s.pending.deferred.Add(1)
		return w, nil
	}
	return nil, fmt.Errorf("storing a handle: no free id after %d attempts", 4)
}

// writePending writes the handle nh describes, its payload from payload,
// under the pending write w, and ends w: a failure is logged, counted and
// kept for the handle's readers as ErrHandleNotKept.
func (s *Store) writePending(nh *newHandleRow, w *pendingWrite, payload func() ([]byte, error)) {
	p, err := payload()
	if err == nil {
		var inserted bool
		inserted, err = s.insertHandle(context.Background(), nh, p)
		if err == nil && !inserted {
			err = fmt.Errorf("storing a handle: its id %s was taken meanwhile", nh.h.ID)
		}
	}
	if err != nil {
		s.pending.failures.Add(1)
		s.log.Error("a handle given out could not be stored", "handle", nh.h.ID, "type", nh.h.Type, "bytes", nh.h.Size, "err", err)
		err = fmt.Errorf("handle %s: %w: the result it names could not be stored after the call answered (%v)", nh.h.ID, ErrHandleNotKept, err)
	}
	s.pending.release(nh.h.ID, w, err, nh.h.Expires)
}

// reserve registers a write of size bytes under id. It returns room false
// when the bounds or the store's closing leave no room (write inline), and
// a nil write when id is pending or failed already (choose another).
func (p *pendingHandles) reserve(id string, size int64) (w *pendingWrite, room bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || len(p.writes) >= p.maxCount || p.bytes+size > p.maxBytes {
		return nil, false
	}
	if _, ok := p.writes[id]; ok {
		return nil, true
	}
	if _, ok := p.failed[id]; ok {
		return nil, true
	}
	w = &pendingWrite{done: make(chan struct{}), size: size}
	p.writes[id] = w
	p.bytes += size
	p.wg.Add(1)
	return w, true
}

// release ends the write of id: a failed one (err set) is remembered for
// its readers until expires, when its handle would have expired.
func (p *pendingHandles) release(id string, w *pendingWrite, err error, expires time.Time) {
	p.mu.Lock()
	delete(p.writes, id)
	p.bytes -= w.size
	if err != nil {
		p.rememberFailure(id, failedWrite{err: err, expires: expires})
		w.err = err
	}
	p.mu.Unlock()
	close(w.done)
	p.wg.Done()
}

// rememberFailure keeps a failed write until its handle would have
// expired, forgetting expired ones and, past maxFailedKept, the one that
// expires first. p.mu is held.
func (p *pendingHandles) rememberFailure(id string, f failedWrite) {
	now := p.now()
	for k, old := range p.failed {
		if !now.Before(old.expires) {
			delete(p.failed, k)
		}
	}
	if len(p.failed) >= maxFailedKept {
		first := ""
		for k, old := range p.failed {
			if first == "" || old.expires.Before(p.failed[first].expires) {
				first = k
			}
		}
		delete(p.failed, first)
	}
	p.failed[id] = f
}

// wait returns once the write of id, if one is pending, has ended: nil
// when the handle is committed (or was never pending), the write's error
// (ErrHandleNotKept) when it failed, ctx's error when the reader gave up.
func (p *pendingHandles) wait(ctx context.Context, id string) error {
	p.mu.Lock()
	w, pending := p.writes[id]
	f, failed := p.failed[id]
	p.mu.Unlock()
	switch {
	case failed:
		return f.err
	case !pending:
		return nil
	}
	w.waiters.Add(1)
	defer w.waiters.Add(-1)
	select {
	case <-w.done:
		return w.err
	case <-ctx.Done():
		return fmt.Errorf("waiting for handle %s to be stored: %w", id, ctx.Err())
	}
}

// waitAll returns once every write pending now has ended, or ctx is done.
func (p *pendingHandles) waitAll(ctx context.Context) error {
	p.mu.Lock()
	ws := slices.Collect(maps.Values(p.writes))
	p.mu.Unlock()
	for _, w := range ws {
		w.waiters.Add(1)
		select {
		case <-w.done:
			w.waiters.Add(-1)
		case <-ctx.Done():
			w.waiters.Add(-1)
			return fmt.Errorf("waiting for handles to be stored: %w", ctx.Err())
		}
	}
	return nil
}

// close turns later puts inline and waits for the pending writes.
func (p *pendingHandles) close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.wg.Wait()
}
