package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"
)

// asyncPayload is a result of a few lines, as search_content keeps them.
var asyncPayload = []byte("{\"path\":\"a.go\",\"line\":1}\n{\"path\":\"b.go\",\"line\":2}\n")

// waitUntil polls cond until it holds; the test fails after a minute. It
// orders steps of a test, it measures nothing.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting for %s after a minute", what)
		}
	}
}

// pendingWaiters counts the readers waiting for the write of id.
func (s *Store) pendingWaiters(id string) int {
	s.pending.mu.Lock()
	defer s.pending.mu.Unlock()
	if w, ok := s.pending.writes[id]; ok {
		return int(w.waiters.Load())
	}
	return 0
}

// A handle given out before its write committed is never "not found":
// handle_read's ReadWindow, Handle and the resource list's Handles wait
// for the write, here held back by another writer's lock, and then read
// what was put.
func TestPutHandleAsyncReadersWaitForTheWrite(t *testing.T) {
	s := openTest(t, nil)
	ctx := context.Background()
	if _, err := s.Handles(ctx, 0); err != nil { // the schema, before the lock
		t.Fatal(err)
	}
	release := lockWriter(t, s)
	h, err := s.PutHandleAsync(ctx, "search_hits", map[string]any{"pattern": "x"}, asyncPayload)
	if err != nil {
		t.Fatalf("PutHandleAsync with the database locked: %v", err)
	}
	if st := s.HandleWriteStats(); st.Pending != 1 || st.PendingBytes != int64(len(asyncPayload)) || st.Deferred != 1 {
		t.Fatalf("stats while the write waits for the lock: %+v", st)
	}
	type read struct {
		sl   Slice
		h    Handle
		list []Handle
		err  error
	}
	window, one, list := make(chan read, 1), make(chan read, 1), make(chan read, 1)
	go func() {
		sl, err := s.ReadWindow(ctx, h.ID, Window{Unit: Lines})
		window <- read{sl: sl, err: err}
	}()
	go func() {
		got, err := s.Handle(ctx, h.ID)
		one <- read{h: got, err: err}
	}()
	go func() {
		got, err := s.Handles(ctx, 0)
		list <- read{list: got, err: err}
	}()
	waitUntil(t, "three readers to wait for the write", func() bool {
		return s.pendingWaiters(h.ID) == 3 || len(window)+len(one)+len(list) > 0
	})
	release()

	r := <-window
	if r.err != nil || r.sl.Content != string(asyncPayload) || r.sl.Total != 2 {
		t.Errorf("ReadWindow after the write: %+v, %v; want the payload's 2 lines", r.sl, r.err)
	}
	r = <-one
	if r.err != nil || r.h.ID != h.ID || r.h.Size != h.Size || r.h.Lines != 2 || !r.h.Created.Equal(h.Created) || !r.h.Expires.Equal(h.Expires) {
		t.Errorf("Handle after the write: %+v, %v; want %+v", r.h, r.err, h)
	}
	r = <-list
	if r.err != nil || !slices.ContainsFunc(r.list, func(x Handle) bool { return x.ID == h.ID }) {
		t.Errorf("Handles after the write: %+v, %v; want %s listed", r.list, r.err, h.ID)
	}
	if st := s.HandleWriteStats(); st.Pending != 0 || st.PendingBytes != 0 || st.Failed != 0 {
		t.Errorf("stats after the write: %+v", st)
	}
}

// A write that fails after the handle was given out reads as
// ErrHandleNotKept, every time, with the reason; it is logged and counted,
// and the handle is not listed. The failure is SQLite's own: a trigger
// refuses the row.
func TestPutHandleAsyncFailureReadsAsNotKept(t *testing.T) {
	var log bytes.Buffer
	s := openTest(t, &Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	ctx := context.Background()
	if _, err := s.Handles(ctx, 0); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", dsn(s.dbPath(t)))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TRIGGER refuse_handles BEFORE INSERT ON handles BEGIN SELECT RAISE(ABORT, 'the test refuses handles'); END`); err != nil {
		t.Fatal(err)
	}
	h, err := s.PutHandleAsync(ctx, "search_hits", nil, asyncPayload)
	if err != nil {
		t.Fatalf("PutHandleAsync: %v (the failure comes after the answer)", err)
	}
	for range 2 {
		_, err = s.ReadWindow(ctx, h.ID, Window{Unit: Lines})
		if !errors.Is(err, ErrHandleNotKept) || !strings.Contains(err.Error(), "the test refuses handles") {
			t.Errorf("ReadWindow of a handle whose write failed: %v; want ErrHandleNotKept with the reason", err)
		}
	}
	if _, err := s.Handle(ctx, h.ID); !errors.Is(err, ErrHandleNotKept) {
		t.Errorf("Handle: %v; want ErrHandleNotKept", err)
	}
	list, err := s.Handles(ctx, 0)
	if err != nil || len(list) != 0 {
		t.Errorf("Handles: %+v, %v; want none", list, err)
	}
	if st := s.HandleWriteStats(); st.Failed != 1 || st.Deferred != 1 || st.Pending != 0 {
		t.Errorf("stats: %+v; want 1 deferred, 1 failed", st)
	}
	if !strings.Contains(log.String(), h.ID) || !strings.Contains(log.String(), "the test refuses handles") {
		t.Errorf("log %q must name the handle and the reason", log.String())
	}
}

// Past the bound on pending bytes a put is written before it returns, as
// PutHandle does: the row is committed when the handle is given out.
func TestPutHandleAsyncOverTheBoundWritesInline(t *testing.T) {
	s := openTest(t, nil)
	ctx := context.Background()
	s.pending.maxBytes = int64(len(asyncPayload)) - 1
	h, err := s.PutHandleAsync(ctx, "search_hits", nil, asyncPayload)
	if err != nil {
		t.Fatal(err)
	}
	var size int64
	if err := s.db.QueryRow(`SELECT size FROM handles WHERE id = ?`, h.ID).Scan(&size); err != nil || size != int64(len(asyncPayload)) {
		t.Errorf("the row when PutHandleAsync returned: size %d, %v; want it committed", size, err)
	}
	if st := s.HandleWriteStats(); st.Inline != 1 || st.Deferred != 0 || st.Pending != 0 {
		t.Errorf("stats: %+v; want 1 inline", st)
	}

	// The bound on the number of pending writes, with the first one held.
	s.pending.maxBytes, s.pending.maxCount = maxPendingBytes, 1
	release := lockWriter(t, s)
	first, err := s.PutHandleAsync(ctx, "search_hits", nil, asyncPayload)
	if err != nil {
		t.Fatal(err)
	}
	second := make(chan error, 1)
	go func() {
		h, err := s.PutHandleAsync(ctx, "search_hits", nil, asyncPayload)
		if err == nil {
			if err = s.db.QueryRow(`SELECT size FROM handles WHERE id = ?`, h.ID).Scan(&size); err != nil {
				err = errors.New("not committed when given out: " + err.Error())
			}
		}
		second <- err
	}()
	waitUntil(t, "the second put to go inline", func() bool { return s.HandleWriteStats().Inline == 2 })
	release()
	if err := <-second; err != nil {
		t.Errorf("the put over the count bound: %v", err)
	}
	if _, err := s.ReadWindow(ctx, first.ID, Window{Unit: Lines}); err != nil {
		t.Errorf("the deferred one: %v", err)
	}
}

// Close waits for the writes pending: a handle given out just before a
// shutdown is in the database after it.
func TestCloseWaitsForPendingHandles(t *testing.T) {
	s := openTest(t, nil)
	ctx := context.Background()
	path := s.dbPath(t)
	release := lockWriter(t, s)
	h, err := s.PutHandleAsync(ctx, "search_hits", nil, asyncPayload)
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	waitUntil(t, "Close to begin", func() bool {
		s.pending.mu.Lock()
		defer s.pending.mu.Unlock()
		return s.pending.closed || len(closed) > 0
	})
	release()
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	again := openTest(t, &Options{Path: path})
	sl, err := again.ReadWindow(ctx, h.ID, Window{Unit: Lines})
	if err != nil || sl.Content != string(asyncPayload) {
		t.Errorf("the handle after Close and a new Open: %q, %v", sl.Content, err)
	}
}
