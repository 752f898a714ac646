package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/store"
)

// A call made while another writer holds the database (a large handle
// being stored, a sweep) answers without waiting for it, and its record is
// written once the database is free: no call waits on another's audit
// record, and none is lost for having been made at a busy moment.
func TestCallDoesNotWaitForTheAuditWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := store.Open(context.Background(), &store.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg := config.Default(t.TempDir(), 0, func(string) string { return "" })
	cfg.Confirm.Tools = nil // the fake toolsets have none of the tools the default rules name
	s, err := New(Options{Config: cfg, Store: st, Toolsets: sets()})
	if err != nil {
		t.Fatal(err)
	}

	tx := holdWriteLock(t, path)
	// The lock is held for the whole call, however long it takes: the
	// call must answer (and be recorded later) without it.
	res, err := s.Call(context.Background(), "core_a", json.RawMessage(`{"content":"abc"}`))
	if err != nil || res.Err != nil {
		t.Fatalf("call: %v %+v", err, res.Err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}

	recs, err := st.RecentCalls(context.Background(), store.CallQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Tool != "core_a" || recs[0].Outcome != store.OutcomeOK {
		t.Fatalf("records after the lock was released: %+v, want the call's", recs)
	}
	if got := gatheredValue(t, s, "hostmcp_audit_records_total", "written"); got != 1 {
		t.Errorf("hostmcp_audit_records_total{fate=written} = %v, want 1", got)
	}
}

// gatheredValue is the value of the metric name whose one label is label.
func gatheredValue(t *testing.T, s *Server, name, label string) float64 {
	t.Helper()
	mfs, err := s.Metrics().Gather().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			if len(m.GetLabel()) == 1 && m.GetLabel()[0].GetValue() == label {
				return m.GetCounter().GetValue()
			}
		}
	}
	t.Fatalf("no %s{%s}", name, label)
	return 0
}

// holdWriteLock takes SQLite's one write lock on the database at path from
// a connection of its own (BEGIN IMMEDIATE), for the caller to roll back;
// the connection closes when the test ends.
func holdWriteLock(t *testing.T, path string) *sql.Tx {
	t.Helper()
	other, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	tx, err := other.Begin()
	if err != nil {
		t.Fatal(err)
	}
	return tx
}
