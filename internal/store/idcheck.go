package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
)

// idCheck tells whether a committed handle has an ID, with a statement
// prepared once and kept: a handle written after the answer has its ID
// checked on the answer's path (reserveID), where preparing the query on
// every call, as QueryRowContext does, cost about a third of the check's
// 0.35 ms after rg's run (bench/RESULTS.md, "A handle made on the answer's
// path costs less"). Each check still runs as its own read of the
// database, so it sees every handle committed before it, by this process
// or another one sharing the state directory; database/sql prepares the
// statement again on a connection that has not seen it, and SQLite again
// after a schema change.
//
// The statement is prepared by the first check, not by Open, since the
// database is opened by its first use (lazy.go); a failed prepare is
// tried again by the next check.
type idCheck struct {
	db *sql.DB

	mu   sync.Mutex
	stmt *sql.Stmt
}

const idTakenQuery = `SELECT 1 FROM handles WHERE id = ?`

// taken reports whether a committed handle has id.
func (c *idCheck) taken(ctx context.Context, id string) (bool, error) {
	stmt, err := c.prepared(ctx)
	if err != nil {
		return false, fmt.Errorf("storing a handle: %w", err)
	}
	var one int
	err = stmt.QueryRowContext(ctx, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("storing a handle: %w", err)
	}
	return true, nil
}

// prepared returns the kept statement, preparing it at the first call.
func (c *idCheck) prepared(ctx context.Context) (*sql.Stmt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stmt != nil {
		return c.stmt, nil
	}
	stmt, err := c.db.PrepareContext(ctx, idTakenQuery)
	if err != nil {
		return nil, err
	}
	c.stmt = stmt
	return stmt, nil
}

// close releases the statement, if it was prepared; the store closes it
// before the database.
func (c *idCheck) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stmt == nil {
		return nil
	}
	err := c.stmt.Close()
	c.stmt = nil
	return err
}
