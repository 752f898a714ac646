package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestPutHandle(t *testing.T) {
	clk := newClock()
	s := openTest(t, &Options{Now: clk.Now, HandleTTL: 10 * time.Minute})
	ctx := context.Background()
	meta := map[string]any{"path": "/var/log/syslog", "lines": 3, "nested": map[string]any{"ok": true}}
	got, err := s.PutHandle(ctx, "fs_read", meta, []byte("a\nb\nc"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got.ID, "H_fsread_20261122T024500Z_") {
		t.Errorf("ID = %q, want the type and the clock's time in it", got.ID)
	}
	want := Handle{
		ID:      got.ID,
		Type:    "fs_read",
		Meta:    map[string]any{"path": "/var/log/syslog", "lines": 3.0, "nested": map[string]any{"ok": true}},
		Size:    5,
		Lines:   3,
		Created: clk.Now(),
		Expires: clk.Now().Add(10 * time.Minute),
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("PutHandle (-got +want):\n%s", diff)
	}
	again, err := s.Handle(ctx, got.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(again, want); diff != "" {
		t.Errorf("Handle (-got +want):\n%s", diff)
	}
}

func TestHandleExpiry(t *testing.T) {
	clk := newClock()
	s := openTest(t, &Options{Now: clk.Now, HandleTTL: time.Hour})
	ctx := context.Background()
	h, err := s.PutHandle(ctx, "t", nil, []byte("data"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		advance time.Duration
		sweep   int // handles Sweep should remove at this point
		wantErr error
	}{
		{"fresh", 0, 0, nil},
		{"just before the TTL", time.Hour - time.Nanosecond, 0, nil},
		{"at the TTL, before a sweep", time.Nanosecond, -1, ErrHandleExpired},
		{"after the sweep", 0, 1, ErrHandleNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk.Advance(tc.advance)
			if tc.sweep >= 0 {
				n, err := s.Sweep(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if n != tc.sweep {
					t.Errorf("Sweep removed %d, want %d", n, tc.sweep)
				}
			}
			_, err := s.ReadHandle(ctx, h.ID, 0, 0, Bytes)
			if !errors.Is(err, tc.wantErr) || (err != nil) != (tc.wantErr != nil) {
				t.Errorf("ReadHandle error = %v, want %v", err, tc.wantErr)
			}
			_, err = s.Handle(ctx, h.ID)
			if !errors.Is(err, tc.wantErr) || (err != nil) != (tc.wantErr != nil) {
				t.Errorf("Handle error = %v, want %v", err, tc.wantErr)
			}
		})
	}
	var chunks int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM handle_chunks`).Scan(&chunks); err != nil {
		t.Fatal(err)
	}
	if chunks != 0 {
		t.Errorf("%d payload chunks left after the sweep", chunks)
	}
}

// alive returns which of ids are still readable.
func alive(t *testing.T, s *Store, ids ...string) []bool {
	t.Helper()
	out := make([]bool, len(ids))
	for i, id := range ids {
		_, err := s.Handle(context.Background(), id)
		if err != nil && !errors.Is(err, ErrHandleNotFound) {
			t.Fatal(err)
		}
		out[i] = err == nil
	}
	return out
}

func TestBudgetEviction(t *testing.T) {
	clk := newClock()
	s := openTest(t, &Options{Now: clk.Now, HandleBudget: 100})
	ctx := context.Background()
	put := func(size int) string {
		t.Helper()
		clk.Advance(time.Second)
		h, err := s.PutHandle(ctx, "t", nil, bytes.Repeat([]byte("x"), size))
		if err != nil {
			t.Fatal(err)
		}
		return h.ID
	}
	a, b, c := put(40), put(40), put(20)
	if diff := cmp.Diff(alive(t, s, a, b, c), []bool{true, true, true}); diff != "" {
		t.Errorf("at the budget (-got +want):\n%s", diff)
	}
	d := put(1)
	if diff := cmp.Diff(alive(t, s, a, b, c, d), []bool{false, true, true, true}); diff != "" {
		t.Errorf("one byte over (-got +want):\n%s", diff)
	}
	e := put(100)
	if diff := cmp.Diff(alive(t, s, b, c, d, e), []bool{false, false, false, true}); diff != "" {
		t.Errorf("a payload of the whole budget (-got +want):\n%s", diff)
	}

	_, err := s.PutHandle(ctx, "t", nil, bytes.Repeat([]byte("x"), 101))
	if err == nil || !strings.Contains(err.Error(), "larger than the handle budget") {
		t.Errorf("oversized PutHandle error = %v, want a budget error", err)
	}
	if diff := cmp.Diff(alive(t, s, e), []bool{true}); diff != "" {
		t.Errorf("an oversized payload evicted others (-got +want):\n%s", diff)
	}
}

func TestSweepEnforcesBudget(t *testing.T) {
	clk := newClock()
	path := filepath.Join(t.TempDir(), "hostmcp.db")
	s := openTest(t, &Options{Path: path, Now: clk.Now, HandleBudget: 1000})
	ctx := context.Background()
	var ids []string
	for range 3 {
		clk.Advance(time.Second)
		h, err := s.PutHandle(ctx, "t", nil, bytes.Repeat([]byte("x"), 300))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, h.ID)
	}
	s.Close()

	s = openTest(t, &Options{Path: path, Now: clk.Now, HandleBudget: 700})
	n, err := s.Sweep(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("Sweep removed %d, want 1", n)
	}
	if diff := cmp.Diff(alive(t, s, ids...), []bool{false, true, true}); diff != "" {
		t.Errorf("after Sweep (-got +want):\n%s", diff)
	}
}

func TestDeleteHandle(t *testing.T) {
	s := openTest(t, nil)
	ctx := context.Background()
	h, err := s.PutHandle(ctx, "t", nil, []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // the second time it is already gone
		if err := s.DeleteHandle(ctx, h.ID); err != nil {
			t.Fatalf("DeleteHandle #%d: %v", i+1, err)
		}
	}
	if _, err := s.Handle(ctx, h.ID); !errors.Is(err, ErrHandleNotFound) {
		t.Errorf("Handle after delete: %v, want ErrHandleNotFound", err)
	}
	if err := s.DeleteHandle(ctx, "nope"); !errors.Is(err, ErrHandleNotFound) {
		t.Errorf("DeleteHandle of a malformed id: %v, want ErrHandleNotFound", err)
	}
}

// TestConcurrentPutRead runs writers, readers and call records at once; run
// it with -race. Each reader checks it gets back exactly what was written.
func TestConcurrentPutRead(t *testing.T) {
	s := openTest(t, nil)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 6 {
		wg.Go(func() {
			for i := range 15 {
				payload := []byte(strings.Repeat(fmt.Sprintf("worker %d item %d\n", w, i), 100+i*50))
				h, err := s.PutHandle(ctx, "conc", map[string]any{"w": w}, payload)
				if err != nil {
					errs <- fmt.Errorf("put: %w", err)
					return
				}
				sl, err := s.ReadHandle(ctx, h.ID, 50, 10, Lines)
				if err != nil {
					errs <- fmt.Errorf("read: %w", err)
					return
				}
				if want := strings.Repeat(fmt.Sprintf("worker %d item %d\n", w, i), 10); sl.Content != want {
					errs <- fmt.Errorf("read %s: got %q, want %q", h.ID, sl.Content, want)
					return
				}
				rec := CallRecord{Tool: "fs_read", Outcome: OutcomeOK, Session: fmt.Sprint(w)}
				if err := s.RecordCall(ctx, rec); err != nil {
					errs <- fmt.Errorf("record: %w", err)
					return
				}
			}
		})
	}
	wg.Go(func() {
		for range 10 {
			if _, err := s.Sweep(ctx); err != nil {
				errs <- fmt.Errorf("sweep: %w", err)
				return
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	calls, err := s.RecentCalls(ctx, CallQuery{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(calls), 6*15; got != want {
		t.Errorf("%d call records, want %d", got, want)
	}
}

// The sweeper removes an expired handle on its first pass and returns when
// its context ends. It runs in a synctest bubble: synctest.Wait returns once
// the pass is done and the sweeper waits on its ticker, so the test neither
// polls nor sets deadlines.
func TestRunSweeper(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := newClock()
		s := openTest(t, &Options{Now: clk.Now, HandleTTL: time.Minute})
		ctx, cancel := context.WithCancel(context.Background())
		h, err := s.PutHandle(ctx, "t", nil, []byte("x"))
		if err != nil {
			t.Fatal(err)
		}
		clk.Advance(time.Hour)
		done := make(chan struct{})
		go func() {
			s.RunSweeper(ctx, time.Minute)
			close(done)
		}()
		synctest.Wait()
		if _, err := s.Handle(context.Background(), h.ID); !errors.Is(err, ErrHandleNotFound) {
			t.Fatalf("the sweeper's first pass did not remove the expired handle: %v", err)
		}
		cancel()
		<-done // a sweeper that did not return deadlocks the bubble, which fails the test
	})
}
