package store

import (
	"context"
	"fmt"
	"time"
)

// ToolStats summarises the recorded calls of one tool, for mcp_usage_stats.
type ToolStats struct {
	Tool     string
	Calls    int64
	Errors   int64
	P50      time.Duration
	P95      time.Duration
	Max      time.Duration
	BytesOut int64
}

// CallStats summarises the calls recorded at or after since (zero: all
// kept records), one entry per tool, sorted by tool name. Percentiles are
// nearest-rank over the kept records.
func (s *Store) CallStats(ctx context.Context, since time.Time) ([]ToolStats, error) {
	var from int64
	if !since.IsZero() {
		from = since.UnixNano()
	}
	rows, err := s.db.QueryContext(ctx,
		`SELECT tool, outcome, duration, bytes_out FROM calls WHERE time >= ? ORDER BY tool, duration`, from)
	if err != nil {
		return nil, fmt.Errorf("summarising calls: %w", err)
	}
	defer rows.Close()
	var out []ToolStats
	var durs []time.Duration // of the current tool, ascending
	flush := func() {
		if len(durs) == 0 {
			return
		}
		st := &out[len(out)-1]
		st.P50, st.P95, st.Max = nearestRank(durs, 50), nearestRank(durs, 95), durs[len(durs)-1]
		durs = durs[:0]
	}
	for rows.Next() {
		var tool, outcome string
		var d, bytesOut int64
		if err := rows.Scan(&tool, &outcome, &d, &bytesOut); err != nil {
			return nil, fmt.Errorf("summarising calls: %w", err)
		}
		if len(out) == 0 || out[len(out)-1].Tool != tool {
			flush()
			out = append(out, ToolStats{Tool: tool})
		}
		st := &out[len(out)-1]
		st.Calls++
		st.BytesOut += bytesOut
		if outcome == OutcomeError {
			st.Errors++
		}
		durs = append(durs, time.Duration(d))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("summarising calls: %w", err)
	}
	flush()
	return out, nil
}

// nearestRank is the p-th percentile of ascending ds by the nearest-rank
// method: the smallest value with at least p% of the values at or below it.
func nearestRank(ds []time.Duration, p int) time.Duration {
	rank := (p*len(ds) + 99) / 100 // ceil(p/100 * n), 1-based
	return ds[max(rank, 1)-1]
}
