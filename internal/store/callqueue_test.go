package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// lockWriter takes SQLite's write lock on the store's file from a second
// connection, as a long handle write would, until the returned func is
// called.
func lockWriter(t *testing.T, s *Store) func() {
	t.Helper()
	db, err := sql.Open("sqlite", dsn(s.dbPath(t)))
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin() // BEGIN IMMEDIATE: the write lock
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release := func() {
		once.Do(func() {
			tx.Rollback()
			db.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// A record queued while another writer holds the database is accepted at
// once, and written when the lock is released.
func TestQueueCallDoesNotWaitForTheDatabase(t *testing.T) {
	s := openTest(t, nil)
	release := lockWriter(t, s)
	for i := range 3 {
		if err := s.QueueCall(CallRecord{Tool: "fs_read", Outcome: OutcomeOK, ArgsSummary: fmt.Sprint(i)}); err != nil {
			t.Fatalf("QueueCall with the database locked: %v", err)
		}
	}
	release()
	got, err := s.RecentCalls(context.Background(), CallQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range got {
		order = append(order, r.ArgsSummary)
	}
	if strings.Join(order, ",") != "2,1,0" {
		t.Errorf("records newest first: got %q, want 2,1,0", order)
	}
}

// Close writes what is still queued: no record is lost on shutdown.
func TestCloseWritesQueuedCalls(t *testing.T) {
	s := openTest(t, nil)
	path := s.dbPath(t)
	for range 1000 {
		if err := s.QueueCall(CallRecord{Tool: "fs_read", Outcome: OutcomeOK}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.QueueCall(CallRecord{Tool: "fs_read", Outcome: OutcomeOK}); !errors.Is(err, ErrClosed) {
		t.Errorf("QueueCall after Close: %v, want ErrClosed", err)
	}
	again := openTest(t, &Options{Path: path})
	got, err := again.Usage(context.Background(), UsageQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Total.Calls != 1000 {
		t.Errorf("records after Close: %d, want 1000", got.Total.Calls)
	}
	if st := s.CallQueueStats(); st.Written != 1000 || st.Dropped != 0 || st.Failed != 0 {
		t.Errorf("stats %+v", st)
	}
}

func (s *Store) dbPath(t *testing.T) string {
	var path string
	if err := s.db.QueryRow(`SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&path); err != nil {
		t.Fatal(err)
	}
	return path
}

// A full queue refuses a record at once rather than making the call wait;
// the loss is counted and written into the trail as a record of its own.
func TestFullQueueDropsAndSaysSo(t *testing.T) {
	gate := make(chan struct{})
	var mu sync.Mutex
	var written []CallRecord
	q := newCallQueue(func(_ context.Context, b []CallRecord) error {
		<-gate
		mu.Lock()
		written = append(written, b...)
		mu.Unlock()
		return nil
	}, slog.New(slog.DiscardHandler))
	accepted, dropped := 0, 0
	for i := range callQueueSize + callBatchLimit + 100 {
		switch err := q.add(CallRecord{Tool: "fs_read", Outcome: OutcomeOK, ArgsSummary: fmt.Sprint(i)}); {
		case err == nil:
			accepted++
		case errors.Is(err, ErrCallQueueFull):
			dropped++
		default:
			t.Fatal(err)
		}
	}
	if dropped == 0 || accepted < callQueueSize {
		t.Fatalf("accepted %d, dropped %d: want the queue (%d) full and the rest dropped", accepted, dropped, callQueueSize)
	}
	close(gate)
	q.close()
	var calls, losses []CallRecord
	for _, r := range written {
		if r.Tool == DroppedCallsTool {
			losses = append(losses, r)
		} else {
			calls = append(calls, r)
		}
	}
	if len(calls) != accepted {
		t.Fatalf("written %d records, want the %d accepted", len(calls), accepted)
	}
	for i, r := range calls {
		if r.ArgsSummary != fmt.Sprint(i) {
			t.Fatalf("record %d is %q: out of order", i, r.ArgsSummary)
		}
	}
	want := fmt.Sprintf("%d call records were dropped", dropped)
	if len(losses) != 1 || losses[0].ErrorCode != DroppedCallsCode || !strings.HasPrefix(losses[0].ArgsSummary, want) {
		t.Errorf("records of the loss: %+v, want one saying %s", losses, want)
	}
	if st := q.snapshot(); st.Dropped != int64(dropped) || st.Written != int64(accepted+1) {
		t.Errorf("stats %+v, want %d dropped, %d written", st, dropped, accepted+1)
	}
}

// A failed write is logged with the number of records it lost and counted.
func TestFailedWriteIsLoggedAndCounted(t *testing.T) {
	var log strings.Builder
	q := newCallQueue(func(context.Context, []CallRecord) error { return errors.New("disk full") },
		slog.New(slog.NewTextHandler(&log, nil)))
	for range 5 {
		if err := q.add(CallRecord{Tool: "fs_read", Outcome: OutcomeOK}); err != nil {
			t.Fatal(err)
		}
	}
	q.close()
	if st := q.snapshot(); st.Failed != 5 || st.Written != 0 {
		t.Errorf("stats %+v; want 5 failed", st)
	}
	if !strings.Contains(log.String(), "records=5") || !strings.Contains(log.String(), "disk full") {
		t.Errorf("log %q must say how many records were lost, and why", log.String())
	}
}
