package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// DefaultSweepEvery is how often RunSweeper sweeps when given no interval.
const DefaultSweepEvery = time.Minute

// Sweep deletes expired handles, then the oldest handles until the rest fit
// the byte budget, then the oldest call records beyond MaxCalls. removed
// counts the handles deleted.
func (s *Store) Sweep(ctx context.Context) (removed int, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("sweeping handles: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `DELETE FROM handles WHERE expires <= ?`, s.now().UnixNano())
	if err != nil {
		return 0, fmt.Errorf("deleting expired handles: %w", err)
	}
	expired, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("deleting expired handles: %w", err)
	}
	evicted, err := s.evict(ctx, tx, "")
	if err != nil {
		return 0, err
	}
	if err := s.pruneCalls(ctx, tx); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("sweeping handles: %w", err)
	}
	return int(expired) + evicted, nil
}

// RunSweeper sweeps once the database is opened by its first use (a
// restart may find a backlog), and then every interval until ctx is done.
// It does not open the database itself: a store never used keeps SQLite
// out of memory (see lazy.go). A failed sweep is logged and retried at the
// next tick: the store keeps working, only its disk use grows meanwhile.
func (s *Store) RunSweeper(ctx context.Context, every time.Duration) {
	if every <= 0 {
		every = DefaultSweepEvery
	}
	select {
	case <-s.Opened():
	case <-ctx.Done():
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if n, err := s.Sweep(ctx); err != nil {
			if ctx.Err() != nil {
				return
			}
			s.log.Warn("sweeping the state store", "err", err)
		} else if n > 0 {
			s.log.Debug("swept handles", "removed", n)
		}
		if n, err := s.SweepArtifacts(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("sweeping artifacts", "err", err)
		} else if n > 0 {
			s.log.Debug("swept artifacts", "removed", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// evict deletes the oldest handles, except keep, until the payloads fit
// the budget, and returns how many it deleted. Ties in creation time go by
// ID, so the order is stable.
func (s *Store) evict(ctx context.Context, tx *sql.Tx, keep string) (int, error) {
	var total int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(SUM(size), 0) FROM handles`).Scan(&total); err != nil {
		return 0, fmt.Errorf("measuring the handle store: %w", err)
	}
	if total <= s.budget {
		return 0, nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, size FROM handles WHERE id != ? ORDER BY created, id`, keep)
	if err != nil {
		return 0, fmt.Errorf("choosing handles to evict: %w", err)
	}
	var victims []string
	for total > s.budget && rows.Next() {
		var id string
		var size int64
		if err := rows.Scan(&id, &size); err != nil {
			rows.Close()
			return 0, fmt.Errorf("choosing handles to evict: %w", err)
		}
		victims = append(victims, id)
		total -= size
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return 0, fmt.Errorf("choosing handles to evict: %w", err)
	}
	if err := rows.Close(); err != nil {
		return 0, fmt.Errorf("choosing handles to evict: %w", err)
	}
	for _, id := range victims {
		if _, err := tx.ExecContext(ctx, `DELETE FROM handles WHERE id = ?`, id); err != nil {
			return 0, fmt.Errorf("evicting handle %s: %w", id, err)
		}
	}
	return len(victims), nil
}

// pruneCalls keeps the newest MaxCalls call records.
func (s *Store) pruneCalls(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM calls WHERE id IN (
		SELECT id FROM calls ORDER BY time DESC, id DESC LIMIT -1 OFFSET ?)`, s.maxCalls)
	if err != nil {
		return fmt.Errorf("pruning call records: %w", err)
	}
	return nil
}
