package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Errors of handle lookups, for errors.Is. A malformed ID is reported as
// not found (it cannot name a handle); an expired handle is reported as
// expired until the sweeper deletes it, and as not found afterwards.
var (
	ErrHandleNotFound = errors.New("handle not found")
	ErrHandleExpired  = errors.New("handle expired")
)

// Handle describes a stored payload. Meta is what the producing tool
// attached (for example the path of a file); it went through JSON, so its
// numbers come back as float64.
type Handle struct {
	ID      string
	Type    string
	Meta    map[string]any
	Size    int64 // payload bytes
	Lines   int64 // payload lines; see buildLineIndex for what a line is
	Created time.Time
	Expires time.Time
}

// PutHandle stores payload under a new handle that expires after the TTL,
// then evicts the oldest other handles if the byte budget is exceeded. A
// payload larger than the whole budget is refused rather than evicting
// everything else for it. It returns once the handle is committed; see
// PutHandleAsync for a put that returns before.
func (s *Store) PutHandle(ctx context.Context, typ string, meta map[string]any, payload []byte) (Handle, error) {
	nh, err := s.newHandle(typ, meta, payload)
	if err != nil {
		return Handle{}, err
	}
	return s.putInline(ctx, &nh, payload)
}

// putInline writes nh under a fresh ID and returns once it is committed.
func (s *Store) putInline(ctx context.Context, nh *newHandleRow, payload []byte) (Handle, error) {
	for attempt := 0; ; attempt++ {
		var err error
		if nh.h.ID, err = newID(nh.h.Type, nh.h.Created); err != nil {
			return Handle{}, err
		}
		inserted, err := s.insertHandle(ctx, nh, payload)
		if err != nil {
			return Handle{}, err
		}
		if inserted {
			return nh.h, nil
		}
		if attempt == 3 {
			return Handle{}, fmt.Errorf("storing a handle: no free id after %d attempts", attempt+1)
		}
	}
}

// newHandleRow is a handle described before it is written: everything but
// its ID, which the put chooses.
type newHandleRow struct {
	h        Handle
	metaJSON []byte
	index    []byte
}

// newHandle describes payload as a handle of type typ, refusing a payload
// larger than the whole budget.
func (s *Store) newHandle(typ string, meta map[string]any, payload []byte) (newHandleRow, error) {
	nh, err := s.describeHandle(typ, meta, int64(len(payload)))
	if err != nil {
		return newHandleRow{}, err
	}
	nh.h.Lines, nh.index = buildLineIndex(payload)
	return nh, nil
}

// describeHandle is newHandle but for what only the payload's bytes tell
// (its lines): what a handle whose payload is written later is given
// before.
func (s *Store) describeHandle(typ string, meta map[string]any, size int64) (newHandleRow, error) {
	if size > s.budget {
		return newHandleRow{}, fmt.Errorf("storing a %d-byte result: larger than the handle budget of %d bytes", size, s.budget)
	}
	metaJSON, err := json.Marshal(meta)
	if err != nil {
		return newHandleRow{}, fmt.Errorf("storing a handle: encoding its metadata: %w", err)
	}
	nh := newHandleRow{metaJSON: metaJSON}
	if err := json.Unmarshal(metaJSON, &nh.h.Meta); err != nil {
		return newHandleRow{}, fmt.Errorf("storing a handle: decoding its metadata: %w", err)
	}
	now := time.Unix(0, s.now().UnixNano()).UTC() // what a read gives back
	nh.h.Type, nh.h.Size, nh.h.Created, nh.h.Expires = typ, size, now, now.Add(s.ttl)
	return nh, nil
}

// insertHandle writes the handle nh describes, under nh.h.ID, with its
// payload, and evicts what the budget no longer holds, in one transaction.
// inserted is false, and nothing is written, when the ID is taken.
func (s *Store) insertHandle(ctx context.Context, nh *newHandleRow, payload []byte) (inserted bool, err error) {
	h := &nh.h
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("storing a handle: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO handles(id, type, meta_json, size, lines, line_index, chunk, created, expires)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING`,
		h.ID, h.Type, string(nh.metaJSON), h.Size, h.Lines, nh.index, chunkSize, h.Created.UnixNano(), h.Expires.UnixNano())
	if err != nil {
		return false, fmt.Errorf("storing a handle: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return false, fmt.Errorf("storing a handle: %w", err)
	} else if n == 0 {
		return false, nil
	}
	if err := writeChunks(ctx, tx, h.ID, payload); err != nil {
		return false, err
	}
	if _, err := s.evict(ctx, tx, h.ID); err != nil {
		return false, err
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("storing a handle: %w", err)
	}
	s.ckpt.wroteHandle(len(payload))
	return true, nil
}

// Handle returns the description of a readable handle.
func (s *Store) Handle(ctx context.Context, id string) (Handle, error) {
	if validID(id) {
		if err := s.pending.wait(ctx, id); err != nil {
			return Handle{}, err
		}
	}
	h, _, err := s.lookup(ctx, s.db, id)
	return h, err
}

// DeleteHandle removes a handle and its payload. Deleting a handle that
// does not exist is not an error: the caller's goal is reached.
func (s *Store) DeleteHandle(ctx context.Context, id string) error {
	if !validID(id) {
		return fmt.Errorf("deleting a handle: %w", errMalformed(id))
	}
	if err := s.pending.wait(ctx, id); err != nil && !errors.Is(err, ErrHandleNotKept) {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM handles WHERE id = ?`, id); err != nil {
		return fmt.Errorf("deleting handle %s: %w", id, err)
	}
	return nil
}

// queryer is what lookup needs from either the pool or a transaction.
type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// lookup loads a handle's row and checks that it is still readable. It
// also returns the line index and the chunk size, which only readers need.
func (s *Store) lookup(ctx context.Context, q queryer, id string) (Handle, handleLayout, error) {
	if !validID(id) {
		return Handle{}, handleLayout{}, errMalformed(id)
	}
	h := Handle{ID: id}
	var l handleLayout
	var metaJSON string
	var created, expires int64
	err := q.QueryRowContext(ctx, `SELECT type, meta_json, size, lines, line_index, chunk, created, expires FROM handles WHERE id = ?`, id).
		Scan(&h.Type, &metaJSON, &h.Size, &h.Lines, &l.index, &l.chunk, &created, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return Handle{}, handleLayout{}, fmt.Errorf("handle %s: %w (it may have expired and been swept, or been evicted to keep the store within its budget)", id, ErrHandleNotFound)
	}
	if err != nil {
		return Handle{}, handleLayout{}, fmt.Errorf("looking up handle %s: %w", id, err)
	}
	h.Created, h.Expires = time.Unix(0, created).UTC(), time.Unix(0, expires).UTC()
	if !s.now().Before(h.Expires) {
		return Handle{}, handleLayout{}, fmt.Errorf("handle %s expired at %s: %w", id, h.Expires.Format(time.RFC3339), ErrHandleExpired)
	}
	if err := json.Unmarshal([]byte(metaJSON), &h.Meta); err != nil {
		return Handle{}, handleLayout{}, fmt.Errorf("handle %s has damaged metadata: %w", id, err)
	}
	if l.chunk <= 0 {
		return Handle{}, handleLayout{}, fmt.Errorf("handle %s has a damaged chunk size %d", id, l.chunk)
	}
	return h, l, nil
}

// handleLayout is how a handle's payload is laid out on disk.
type handleLayout struct {
	index []byte
	chunk int64
}

func errMalformed(id string) error {
	const max = 80
	if len(id) > max {
		id = id[:max] + "..."
	}
	return fmt.Errorf("%q is not a handle id (they look like H_fsread_20261122T024500Z_9f3a1c2b): %w", id, ErrHandleNotFound)
}
