package store

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// maxArgsSummary caps a recorded argument summary, in characters. Callers
// redact and shorten already; this keeps a caller's slip from storing a
// whole file in the audit trail.
const maxArgsSummary = 200

// Outcomes of a call.
const (
	OutcomeOK    = "ok"
	OutcomeError = "error"
)

// CallRecord is one tool call, as the stats tools and an operator see it.
// It never holds secrets or file contents: ArgsSummary is redacted by the
// caller.
type CallRecord struct {
	ID          int64 // set by the store
	Time        time.Time
	Tool        string
	Session     string
	ArgsSummary string
	Outcome     string // OutcomeOK or OutcomeError
	ErrorCode   string // the tool error code when Outcome is OutcomeError
	Duration    time.Duration
	BytesOut    int64
	// Confirmation is what came of a person's confirmation for a call
	// that changes something ([confirm]): "confirmed", "declined",
	// "refused" (its client could not ask), "dry_run"...; empty when
	// nothing was to be confirmed. The tool framework names the values.
	Confirmation string
}

// RecordCall appends a call record and waits for it to be written. A zero
// Time means now. The server's calls use QueueCall, which does not wait.
func (s *Store) RecordCall(ctx context.Context, r CallRecord) error {
	if err := checkRecord(r); err != nil {
		return err
	}
	return s.insertCalls(ctx, []CallRecord{r})
}

// QueueCall hands a call record to the background writer and returns at
// once: a call never waits on the database, nor on another call's record.
// Records are written in order, in batches; RecentCalls, Usage and Close
// first wait for every record queued before them. When the queue is full
// the record is dropped, counted, and a record saying how many were lost
// is written with the next batch (DroppedCallsCode); ErrCallQueueFull says
// so to the caller. A zero Time means now.
func (s *Store) QueueCall(r CallRecord) error {
	if err := checkRecord(r); err != nil {
		return err
	}
	if r.Time.IsZero() {
		r.Time = s.now()
	}
	return s.calls.add(r)
}

// CallQueueStats reports the background writer of call records.
func (s *Store) CallQueueStats() CallQueueStats { return s.calls.snapshot() }

// FlushCalls waits until every call record queued before it is written.
func (s *Store) FlushCalls(ctx context.Context) error { return s.calls.flush(ctx) }

func checkRecord(r CallRecord) error {
	if r.Tool == "" {
		return fmt.Errorf("recording a call: no tool name")
	}
	if r.Outcome != OutcomeOK && r.Outcome != OutcomeError {
		return fmt.Errorf("recording a call to %s: outcome must be %q or %q, not %q", r.Tool, OutcomeOK, OutcomeError, r.Outcome)
	}
	if !confirmationWord().MatchString(r.Confirmation) {
		return fmt.Errorf("recording a call to %s: confirmation %q is not a lower-case word", r.Tool, r.Confirmation)
	}
	return nil
}

// insertCalls writes records in one transaction.
func (s *Store) insertCalls(ctx context.Context, records []CallRecord) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("recording %d calls: %w", len(records), err)
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO calls(time, tool, session, args_summary, outcome, error_code, duration, bytes_out, confirmation)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("recording %d calls: %w", len(records), err)
	}
	defer stmt.Close()
	for _, r := range records {
		if r.Time.IsZero() {
			r.Time = s.now()
		}
		if _, err := stmt.ExecContext(ctx, r.Time.UnixNano(), r.Tool, r.Session, capSummary(r.ArgsSummary), r.Outcome, r.ErrorCode, int64(r.Duration), r.BytesOut, r.Confirmation); err != nil {
			return fmt.Errorf("recording a call to %s: %w", r.Tool, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("recording %d calls: %w", len(records), err)
	}
	return nil
}

// confirmationWord is what a record's confirmation may hold.
var confirmationWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z_]{0,32}$`) })

// capSummary makes s valid UTF-8 of at most maxArgsSummary characters,
// marking a cut with an ellipsis.
func capSummary(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if utf8.RuneCountInString(s) <= maxArgsSummary {
		return s
	}
	n := 0
	for i := range s {
		if n == maxArgsSummary-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// CallQuery selects call records. Zero fields do not filter; Limit <= 0
// means DefaultCallLimit.
type CallQuery struct {
	Since   time.Time // records at or after this time
	Tool    string    // exact tool name
	Outcome string    // OutcomeOK or OutcomeError
	Limit   int
}

// DefaultCallLimit is how many records RecentCalls returns by default.
const DefaultCallLimit = 50

// RecentCalls returns the records matching q, newest first, queued ones
// included.
func (s *Store) RecentCalls(ctx context.Context, q CallQuery) ([]CallRecord, error) {
	if err := s.FlushCalls(ctx); err != nil {
		return nil, fmt.Errorf("listing recent calls: %w", err)
	}
	var where []string
	var args []any
	if !q.Since.IsZero() {
		where, args = append(where, "time >= ?"), append(args, q.Since.UnixNano())
	}
	if q.Tool != "" {
		where, args = append(where, "tool = ?"), append(args, q.Tool)
	}
	if q.Outcome != "" {
		where, args = append(where, "outcome = ?"), append(args, q.Outcome)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultCallLimit
	}
	query := `SELECT id, time, tool, session, args_summary, outcome, error_code, duration, bytes_out, confirmation FROM calls`
	if len(where) > 0 {
		query += " WHERE " + strings.Join(where, " AND ")
	}
	query += " ORDER BY time DESC, id DESC LIMIT ?"
	args = append(args, min(limit, s.maxCalls))
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("listing recent calls: %w", err)
	}
	defer rows.Close()
	var out []CallRecord
	for rows.Next() {
		var r CallRecord
		var t, d int64
		if err := rows.Scan(&r.ID, &t, &r.Tool, &r.Session, &r.ArgsSummary, &r.Outcome, &r.ErrorCode, &d, &r.BytesOut, &r.Confirmation); err != nil {
			return nil, fmt.Errorf("listing recent calls: %w", err)
		}
		r.Time, r.Duration = time.Unix(0, t).UTC(), time.Duration(d)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing recent calls: %w", err)
	}
	return out, nil
}
