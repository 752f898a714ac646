package store

import (
	"context"
	"fmt"
	"regexp"
	"strings"
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

// RecordCall appends a call record. A zero Time means now.
func (s *Store) RecordCall(ctx context.Context, r CallRecord) error {
	if r.Tool == "" {
		return fmt.Errorf("recording a call: no tool name")
	}
	if r.Outcome != OutcomeOK && r.Outcome != OutcomeError {
		return fmt.Errorf("recording a call to %s: outcome must be %q or %q, not %q", r.Tool, OutcomeOK, OutcomeError, r.Outcome)
	}
	if !confirmationWord.MatchString(r.Confirmation) {
		return fmt.Errorf("recording a call to %s: confirmation %q is not a lower-case word", r.Tool, r.Confirmation)
	}
	if r.Time.IsZero() {
		r.Time = s.now()
	}
	_, err := s.db.ExecContext(ctx, `INSERT INTO calls(time, tool, session, args_summary, outcome, error_code, duration, bytes_out, confirmation)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.Time.UnixNano(), r.Tool, r.Session, capSummary(r.ArgsSummary), r.Outcome, r.ErrorCode, int64(r.Duration), r.BytesOut, r.Confirmation)
	if err != nil {
		return fmt.Errorf("recording a call to %s: %w", r.Tool, err)
	}
	return nil
}

// confirmationWord is what a record's confirmation may hold.
var confirmationWord = regexp.MustCompile(`^[a-z_]{0,32}$`)

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

// RecentCalls returns the records matching q, newest first.
func (s *Store) RecentCalls(ctx context.Context, q CallQuery) ([]CallRecord, error) {
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
