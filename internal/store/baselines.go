package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"time"
)

// MaxBaselines is how many named baselines the store keeps. Saving one more
// drops the oldest: a baseline is a reference an operator or an agent chose
// ("before-deploy", "default"), not a time series, and a cap keeps a loop
// that saves under fresh names from growing the database.
const MaxBaselines = 32

// maxBaselineBytes bounds one baseline's data. A snapshot of a host with
// many mounts and limited cgroups is tens of kilobytes.
const maxBaselineBytes = 1 << 20

// ErrBaselineNotFound is returned for a name no baseline has.
var ErrBaselineNotFound = errors.New("baseline not found")

var baselineName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`) })

// ValidBaselineName reports whether name can name a baseline: 1 to 64
// letters, digits, '.', '_' or '-', starting with a letter or digit, so it
// is safe to print, to pass on a command line and to use as a key.
func ValidBaselineName(name string) bool { return baselineName().MatchString(name) }

// Baseline is a named reading of the host kept for later comparison. The
// store keeps Data as given (JSON of the caller's type) with what says where
// and when it was taken.
type Baseline struct {
	Name     string
	Saved    time.Time
	Tool     string // the tool that saved it
	Hostname string
	BootID   string // /proc/sys/kernel/random/boot_id: counters restart with it
	Data     []byte // JSON; empty in Baselines' listing
}

// SaveBaseline stores b under its name, replacing a baseline of that name,
// and drops the oldest beyond MaxBaselines, in one transaction. It returns
// the names dropped. A zero Saved means now.
func (s *Store) SaveBaseline(ctx context.Context, b Baseline) (dropped []string, err error) {
	if !ValidBaselineName(b.Name) {
		return nil, fmt.Errorf("saving a baseline: invalid name %q", b.Name)
	}
	if len(b.Data) == 0 || len(b.Data) > maxBaselineBytes {
		return nil, fmt.Errorf("saving baseline %s: %d bytes of data, want 1 to %d", b.Name, len(b.Data), maxBaselineBytes)
	}
	if b.Saved.IsZero() {
		b.Saved = s.now()
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("saving baseline %s: %w", b.Name, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO baselines(name, saved, tool, hostname, boot_id, data_json) VALUES (?, ?, ?, ?, ?, ?)`,
		b.Name, b.Saved.UnixNano(), b.Tool, b.Hostname, b.BootID, string(b.Data)); err != nil {
		return nil, fmt.Errorf("saving baseline %s: %w", b.Name, err)
	}
	rows, err := tx.QueryContext(ctx, `SELECT name FROM baselines ORDER BY saved DESC, name LIMIT -1 OFFSET ?`, MaxBaselines)
	if err != nil {
		return nil, fmt.Errorf("saving baseline %s: %w", b.Name, err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return nil, fmt.Errorf("saving baseline %s: %w", b.Name, err)
		}
		dropped = append(dropped, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("saving baseline %s: %w", b.Name, err)
	}
	for _, name := range dropped {
		if _, err := tx.ExecContext(ctx, `DELETE FROM baselines WHERE name = ?`, name); err != nil {
			return nil, fmt.Errorf("saving baseline %s: dropping %s: %w", b.Name, name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("saving baseline %s: %w", b.Name, err)
	}
	return dropped, nil
}

// LoadBaseline returns the baseline named name, with its data, or
// ErrBaselineNotFound.
func (s *Store) LoadBaseline(ctx context.Context, name string) (Baseline, error) {
	if !ValidBaselineName(name) {
		return Baseline{}, ErrBaselineNotFound
	}
	b := Baseline{Name: name}
	var saved int64
	var data string
	err := s.db.QueryRowContext(ctx, `SELECT saved, tool, hostname, boot_id, data_json FROM baselines WHERE name = ?`, name).
		Scan(&saved, &b.Tool, &b.Hostname, &b.BootID, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return Baseline{}, ErrBaselineNotFound
	}
	if err != nil {
		return Baseline{}, fmt.Errorf("reading baseline %s: %w", name, err)
	}
	b.Saved, b.Data = time.Unix(0, saved).UTC(), []byte(data)
	return b, nil
}

// Baselines lists the baselines kept, newest first, without their data.
func (s *Store) Baselines(ctx context.Context) ([]Baseline, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, saved, tool, hostname, boot_id FROM baselines ORDER BY saved DESC, name`)
	if err != nil {
		return nil, fmt.Errorf("listing baselines: %w", err)
	}
	defer rows.Close()
	out := []Baseline{}
	for rows.Next() {
		var b Baseline
		var saved int64
		if err := rows.Scan(&b.Name, &saved, &b.Tool, &b.Hostname, &b.BootID); err != nil {
			return nil, fmt.Errorf("listing baselines: %w", err)
		}
		b.Saved = time.Unix(0, saved).UTC()
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing baselines: %w", err)
	}
	return out, nil
}
