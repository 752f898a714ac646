package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Handles lists the readable handles, newest first, at most limit of them
// (all when limit <= 0), once the writes pending at the call have ended, so
// that every handle already given out is listed. Their payloads are not
// read.
func (s *Store) Handles(ctx context.Context, limit int) ([]Handle, error) {
	if err := s.pending.waitAll(ctx); err != nil {
		return nil, err
	}
	q := `SELECT id, type, meta_json, size, lines, created, expires FROM handles WHERE expires > ? ORDER BY created DESC, id`
	if limit > 0 {
		q += fmt.Sprintf(` LIMIT %d`, limit)
	}
	rows, err := s.db.QueryContext(ctx, q, s.now().UnixNano())
	if err != nil {
		return nil, fmt.Errorf("listing handles: %w", err)
	}
	defer rows.Close()
	out := []Handle{}
	for rows.Next() {
		var h Handle
		var metaJSON string
		var created, expires int64
		if err := rows.Scan(&h.ID, &h.Type, &metaJSON, &h.Size, &h.Lines, &created, &expires); err != nil {
			return nil, fmt.Errorf("listing handles: %w", err)
		}
		if err := json.Unmarshal([]byte(metaJSON), &h.Meta); err != nil {
			return nil, fmt.Errorf("listing handles: %s has damaged metadata: %w", h.ID, err)
		}
		h.Created, h.Expires = time.Unix(0, created).UTC(), time.Unix(0, expires).UTC()
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing handles: %w", err)
	}
	return out, nil
}
