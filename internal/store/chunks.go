package store

import (
	"context"
	"database/sql"
	"fmt"
)

// chunkSize is how a payload is cut into handle_chunks rows. 64 KiB keeps
// a 100-line window to one or two rows while a 256 MiB payload stays at
// 4,096 rows. Each handle records the size it was written with, so this
// can change without breaking stored handles.
const chunkSize = 64 << 10

// maxScanBatch is the most chunks one query fetches while scanning for
// lines. A scan starts with one chunk, as most windows fit in it, and
// doubles the batch while it goes on.
const maxScanBatch = 8

// writeChunks stores payload as rows of handle_chunks under id.
func writeChunks(ctx context.Context, tx *sql.Tx, id string, payload []byte) error {
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO handle_chunks(handle_id, seq, data) VALUES (?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("storing the payload: %w", err)
	}
	defer stmt.Close()
	for seq := 0; seq*chunkSize < len(payload); seq++ {
		part := payload[seq*chunkSize : min((seq+1)*chunkSize, len(payload))]
		if _, err := stmt.ExecContext(ctx, id, seq, part); err != nil {
			return fmt.Errorf("storing the payload: %w", err)
		}
	}
	return nil
}

// payload reads one handle's chunks inside a read transaction, so the
// handle row and its chunks come from the same snapshot even while the
// sweeper deletes.
type payload struct {
	tx    *sql.Tx
	id    string
	size  int64
	chunk int64
}

// readRange returns bytes [from, to) of the payload.
func (p *payload) readRange(ctx context.Context, from, to int64) ([]byte, error) {
	if from >= to {
		return []byte{}, nil
	}
	first, last := from/p.chunk, (to-1)/p.chunk
	rows, err := p.tx.QueryContext(ctx,
		`SELECT seq, data FROM handle_chunks WHERE handle_id = ? AND seq BETWEEN ? AND ? ORDER BY seq`,
		p.id, first, last)
	if err != nil {
		return nil, fmt.Errorf("reading handle %s: %w", p.id, err)
	}
	defer rows.Close()
	out := make([]byte, 0, to-from)
	want := first
	for rows.Next() {
		var seq int64
		var data sql.RawBytes // copied into out below, so no copy here
		if err := rows.Scan(&seq, &data); err != nil {
			return nil, fmt.Errorf("reading handle %s: %w", p.id, err)
		}
		if seq != want {
			return nil, fmt.Errorf("handle %s is missing chunk %d", p.id, want)
		}
		base := seq * p.chunk
		lo := max(from-base, 0)
		hi := min(to-base, int64(len(data)))
		if lo < hi {
			out = append(out, data[lo:hi]...)
		}
		want++
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading handle %s: %w", p.id, err)
	}
	if int64(len(out)) != to-from {
		return nil, fmt.Errorf("handle %s is shorter than recorded: got %d bytes of %d..%d", p.id, len(out), from, to)
	}
	return out, nil
}

// chunkIter walks the payload's chunks in order from a byte offset,
// fetching scanBatch of them per query, for scans whose end is unknown.
type chunkIter struct {
	p       *payload
	nextSeq int64
	batch   int64
	pending []chunkData
}

type chunkData struct {
	base int64 // byte offset of data[0] in the payload
	data []byte
}

func (p *payload) iterFrom(off int64) *chunkIter {
	return &chunkIter{p: p, nextSeq: off / p.chunk, batch: 1}
}

// next returns the next chunk, or ok=false at the end of the payload.
func (it *chunkIter) next(ctx context.Context) (c chunkData, ok bool, err error) {
	if len(it.pending) == 0 {
		if it.nextSeq*it.p.chunk >= it.p.size {
			return chunkData{}, false, nil
		}
		if err := it.fetch(ctx); err != nil {
			return chunkData{}, false, err
		}
		if len(it.pending) == 0 {
			return chunkData{}, false, fmt.Errorf("handle %s is missing chunk %d", it.p.id, it.nextSeq)
		}
	}
	c, it.pending = it.pending[0], it.pending[1:]
	return c, true, nil
}

func (it *chunkIter) fetch(ctx context.Context) error {
	rows, err := it.p.tx.QueryContext(ctx,
		`SELECT seq, data FROM handle_chunks WHERE handle_id = ? AND seq >= ? ORDER BY seq LIMIT ?`,
		it.p.id, it.nextSeq, it.batch)
	if err != nil {
		return fmt.Errorf("reading handle %s: %w", it.p.id, err)
	}
	defer rows.Close()
	it.batch = min(2*it.batch, maxScanBatch)
	for rows.Next() {
		var seq int64
		var data []byte
		if err := rows.Scan(&seq, &data); err != nil {
			return fmt.Errorf("reading handle %s: %w", it.p.id, err)
		}
		if seq != it.nextSeq {
			return fmt.Errorf("handle %s is missing chunk %d", it.p.id, it.nextSeq)
		}
		it.pending = append(it.pending, chunkData{base: seq * it.p.chunk, data: data})
		it.nextSeq++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading handle %s: %w", it.p.id, err)
	}
	return nil
}
