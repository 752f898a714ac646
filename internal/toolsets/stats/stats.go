// Package stats is the stats toolset of spec 004 section 3.7: hostmcp's own
// usage, from the call records in the store, so it spans restarts.
package stats

import (
	"context"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Set is the stats toolset.
type Set struct{ store *store.Store }

// New builds the stats toolset over the store's call records.
func New(st *store.Store) *Set { return &Set{store: st} }

// Toolset lists the stats tools.
func (s *Set) Toolset() tool.Toolset {
	return tool.Toolset{
		Name:           "stats",
		Description:    "hostmcp's own usage: calls, errors and latency per tool, and the recent calls, across restarts.",
		DefaultEnabled: true,
		Tools:          []*tool.Def{s.usage(), s.recent()},
	}
}

// parseSince reads since as a duration back from now ("1h", "30m") or an
// RFC 3339 time; empty means every kept record.
func parseSince(since string, now time.Time) (time.Time, error) {
	if since == "" {
		return time.Time{}, nil
	}
	if d, err := time.ParseDuration(since); err == nil && d > 0 {
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339Nano, since); err == nil {
		return t, nil
	}
	return time.Time{}, tool.Errorf(tool.InvalidArgument, "since %q: want a duration back from now such as 1h or 30m, or an RFC 3339 time", tool.Clip(since)).
		WithSuggestion("Use since: \"24h\" for the last day, or leave it out for every kept record.")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// toolStats is one tool's (or the total's) figures.
type toolStats struct {
	Tool         string           `json:"tool,omitempty"`
	Calls        int64            `json:"calls"`
	Errors       int64            `json:"errors"`
	ErrorsByCode map[string]int64 `json:"errors_by_code,omitempty"`
	P50MS        float64          `json:"p50_ms"`
	P95MS        float64          `json:"p95_ms"`
	P99MS        float64          `json:"p99_ms"`
	MaxMS        float64          `json:"max_ms"`
	BytesOut     int64            `json:"bytes_returned"`
}

func toToolStats(t store.ToolStats) toolStats {
	return toolStats{Tool: t.Tool, Calls: t.Calls, Errors: t.Errors, ErrorsByCode: t.ErrorsByCode,
		P50MS: ms(t.P50), P95MS: ms(t.P95), P99MS: ms(t.P99), MaxMS: ms(t.Max), BytesOut: t.BytesOut}
}

type usageIn struct {
	Since string `json:"since,omitempty" jsonschema:"duration back (1h) or RFC 3339 time"`
	Tool  string `json:"tool,omitempty" jsonschema:"only this tool"`
}

type usageOut struct {
	Tools    []toolStats `json:"tools" jsonschema:"per tool, sorted by name"`
	Total    toolStats   `json:"total"`
	First    string      `json:"first,omitempty" jsonschema:"time of the oldest call counted"`
	Last     string      `json:"last,omitempty" jsonschema:"time of the newest call counted"`
	Retained int         `json:"retained_max" jsonschema:"the store keeps at most this many call records"`
}

func (s *Set) usage() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "mcp_usage_stats",
		Kind:        tool.ReadOnly,
		Title:       "hostmcp usage statistics",
		Description: "Per tool: calls, errors by code, p50/p95/p99 latency and bytes returned.",
		Timeout:     10 * time.Second,
	}, s.handleUsage)
}

func (s *Set) handleUsage(ctx context.Context, _ *tool.Call, in usageIn) (usageOut, error) {
	since, err := parseSince(in.Since, time.Now())
	if err != nil {
		return usageOut{}, err
	}
	u, err := s.store.Usage(ctx, store.UsageQuery{Since: since, Tool: strings.TrimSpace(in.Tool)})
	if err != nil {
		return usageOut{}, tool.Wrap(tool.Internal, err, "reading call records: %v", err)
	}
	out := usageOut{Tools: []toolStats{}, Total: toToolStats(u.Total), Retained: s.store.CallRetention()}
	for _, t := range u.Tools {
		out.Tools = append(out.Tools, toToolStats(t))
	}
	if !u.First.IsZero() {
		out.First, out.Last = u.First.UTC().Format(time.RFC3339Nano), u.Last.UTC().Format(time.RFC3339Nano)
	}
	return out, nil
}

type recentIn struct {
	MaxResults int    `json:"max_results,omitempty" default:"50"`
	Tool       string `json:"tool,omitempty" jsonschema:"only this tool"`
	Outcome    string `json:"outcome,omitempty" jsonschema:"only these"`
}

// callRecord is one recorded call.
type callRecord struct {
	Time       string  `json:"time" jsonschema:"when it started, RFC 3339"`
	Tool       string  `json:"tool"`
	Session    string  `json:"session"`
	Args       string  `json:"args" jsonschema:"redacted summary of the arguments, at most 200 characters"`
	Outcome    string  `json:"outcome" jsonschema:"ok or error"`
	ErrorCode  string  `json:"error_code,omitempty"`
	DurationMS float64 `json:"duration_ms"`
	BytesOut   int64   `json:"bytes_returned"`
	// Confirmation is left out for calls with nothing to confirm.
	Confirmation string `json:"confirmation,omitempty" jsonschema:"a call that changes something: confirmed, declined, cancelled or unanswered by a person, refused or unconfirmed (no client could ask), dry_run, or asked (the question went to the client)"`
}

type recentOut struct {
	Calls []callRecord `json:"calls" jsonschema:"newest first"`
}

func (s *Set) recent() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "mcp_recent_calls",
		Kind:        tool.ReadOnly,
		Title:       "Recent hostmcp calls",
		Description: "Recent tool calls, newest first: redacted arguments, outcome, duration, confirmation.",
		Timeout:     10 * time.Second,
	}, s.handleRecent).WithRange("max_results", 1, 500).WithEnum("outcome", store.OutcomeOK, store.OutcomeError)
}

func (s *Set) handleRecent(ctx context.Context, _ *tool.Call, in recentIn) (recentOut, error) {
	limit := in.MaxResults
	if limit == 0 {
		limit = 50
	}
	recs, err := s.store.RecentCalls(ctx, store.CallQuery{Tool: strings.TrimSpace(in.Tool), Outcome: in.Outcome, Limit: limit})
	if err != nil {
		return recentOut{}, tool.Wrap(tool.Internal, err, "reading call records: %v", err)
	}
	out := recentOut{Calls: []callRecord{}}
	for _, r := range recs {
		out.Calls = append(out.Calls, callRecord{Time: r.Time.UTC().Format(time.RFC3339Nano), Tool: r.Tool, Session: r.Session, Args: r.ArgsSummary,
			Outcome: r.Outcome, ErrorCode: r.ErrorCode, DurationMS: ms(r.Duration), BytesOut: r.BytesOut, Confirmation: r.Confirmation})
	}
	return out, nil
}
