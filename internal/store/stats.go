package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// ToolStats summarises the recorded calls of one tool (or of all of them,
// as Usage.Total), for mcp_usage_stats.
type ToolStats struct {
	Tool     string
	Calls    int64
	Errors   int64
	P50      time.Duration
	P95      time.Duration
	P99      time.Duration
	Max      time.Duration
	BytesOut int64
	// ErrorsByCode counts the failed calls by tool error code; nil when
	// there were none. A failure recorded without a code counts as
	// UnknownErrorCode.
	ErrorsByCode map[string]int64
}

// UnknownErrorCode labels failed calls recorded without an error code.
const UnknownErrorCode = "UNKNOWN"

// UsageQuery selects the records Usage summarises. Zero fields do not filter.
type UsageQuery struct {
	Since time.Time // records at or after this time
	Tool  string    // exact tool name
}

// Usage is the summary of the selected call records.
type Usage struct {
	Tools []ToolStats // one per tool, sorted by name
	Total ToolStats   // over every selected record; Tool is empty
	// First and Last are the times of the oldest and newest selected
	// records; zero when none matched.
	First, Last time.Time
}

// CallStats summarises the calls recorded at or after since (zero: all
// kept records), one entry per tool, sorted by tool name. Percentiles are
// nearest-rank over the kept records.
func (s *Store) CallStats(ctx context.Context, since time.Time) ([]ToolStats, error) {
	u, err := s.Usage(ctx, UsageQuery{Since: since})
	return u.Tools, err
}

// Usage summarises the records matching q, per tool and in total.
// Percentiles are exact (nearest-rank) over the selected records: the store
// keeps at most MaxCalls of them, so the durations fit in memory.
func (s *Store) Usage(ctx context.Context, q UsageQuery) (Usage, error) {
	if err := s.FlushCalls(ctx); err != nil {
		return Usage{}, fmt.Errorf("summarising calls: %w", err)
	}
	where, args := []string{"time >= ?"}, []any{int64(0)}
	if !q.Since.IsZero() {
		args[0] = q.Since.UnixNano()
	}
	if q.Tool != "" {
		where, args = append(where, "tool = ?"), append(args, q.Tool)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT time, tool, outcome, error_code, duration, bytes_out FROM calls WHERE `+
		strings.Join(where, " AND ")+` ORDER BY tool, duration`, args...)
	if err != nil {
		return Usage{}, fmt.Errorf("summarising calls: %w", err)
	}
	defer rows.Close()
	var u Usage
	var durs, all []time.Duration // of the current tool (ascending), of every tool
	flush := func() {
		if len(durs) > 0 {
			setPercentiles(&u.Tools[len(u.Tools)-1], durs)
			durs = durs[:0]
		}
	}
	for rows.Next() {
		var tool, outcome, code string
		var t, d, bytesOut int64
		if err := rows.Scan(&t, &tool, &outcome, &code, &d, &bytesOut); err != nil {
			return Usage{}, fmt.Errorf("summarising calls: %w", err)
		}
		if len(u.Tools) == 0 || u.Tools[len(u.Tools)-1].Tool != tool {
			flush()
			u.Tools = append(u.Tools, ToolStats{Tool: tool})
		}
		at := time.Unix(0, t).UTC()
		if u.First.IsZero() || at.Before(u.First) {
			u.First = at
		}
		if at.After(u.Last) {
			u.Last = at
		}
		for _, st := range []*ToolStats{&u.Tools[len(u.Tools)-1], &u.Total} {
			st.add(outcome, code, bytesOut)
		}
		durs, all = append(durs, time.Duration(d)), append(all, time.Duration(d))
	}
	if err := rows.Err(); err != nil {
		return Usage{}, fmt.Errorf("summarising calls: %w", err)
	}
	flush()
	if len(all) > 0 {
		slices.Sort(all)
		setPercentiles(&u.Total, all)
	}
	return u, nil
}

// add counts one record in st.
func (st *ToolStats) add(outcome, code string, bytesOut int64) {
	st.Calls++
	st.BytesOut += bytesOut
	if outcome != OutcomeError {
		return
	}
	st.Errors++
	if code == "" {
		code = UnknownErrorCode
	}
	if st.ErrorsByCode == nil {
		st.ErrorsByCode = map[string]int64{}
	}
	st.ErrorsByCode[code]++
}

// setPercentiles fills st's latencies from ascending, non-empty ds.
func setPercentiles(st *ToolStats, ds []time.Duration) {
	st.P50, st.P95, st.P99 = nearestRank(ds, 50), nearestRank(ds, 95), nearestRank(ds, 99)
	st.Max = ds[len(ds)-1]
}

// nearestRank is the p-th percentile of ascending ds by the nearest-rank
// method: the smallest value with at least p% of the values at or below it.
func nearestRank(ds []time.Duration, p int) time.Duration {
	rank := (p*len(ds) + 99) / 100 // ceil(p/100 * n), 1-based
	return ds[max(rank, 1)-1]
}

// CallRetention is how many call records the sweeper keeps (the newest):
// stats span at most that many calls.
func (s *Store) CallRetention() int { return s.maxCalls }
