package store

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestUsage(t *testing.T) {
	clk := newClock()
	s := openTest(t, &Options{Now: clk.Now, MaxCalls: 500})
	ctx := context.Background()
	t0 := clk.Now()
	at := func(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	// 200 calls of "slow" taking 1..200 ms, so p50, p95, p99 and max differ;
	// every 50th fails with TIMEOUT, one more without a code.
	for i := 1; i <= 200; i++ {
		r := CallRecord{Time: at(i), Tool: "slow", Outcome: OutcomeOK, Duration: ms(i), BytesOut: 2}
		if i%50 == 0 {
			r.Outcome, r.ErrorCode = OutcomeError, "TIMEOUT"
		}
		if i == 7 {
			r.Outcome = OutcomeError
		}
		if err := s.RecordCall(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	quick := []CallRecord{
		{Time: at(0), Tool: "fast", Outcome: OutcomeOK, Duration: time.Microsecond, BytesOut: 100},
		{Time: at(300), Tool: "fast", Outcome: OutcomeError, ErrorCode: "INVALID_PARAMS", Duration: 3 * time.Microsecond, BytesOut: 50},
	}
	for _, r := range quick {
		if err := s.RecordCall(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	slow := ToolStats{Tool: "slow", Calls: 200, Errors: 5, P50: ms(100), P95: ms(190), P99: ms(198), Max: ms(200), BytesOut: 400,
		ErrorsByCode: map[string]int64{"TIMEOUT": 4, UnknownErrorCode: 1}}
	fast := ToolStats{Tool: "fast", Calls: 2, Errors: 1, P50: time.Microsecond, P95: 3 * time.Microsecond, P99: 3 * time.Microsecond, Max: 3 * time.Microsecond, BytesOut: 150,
		ErrorsByCode: map[string]int64{"INVALID_PARAMS": 1}}
	tests := []struct {
		name string
		q    UsageQuery
		want Usage
	}{
		{"all", UsageQuery{}, Usage{
			Tools: []ToolStats{fast, slow},
			// 202 durations: 1 µs, 3 µs, 1..200 ms; rank 101 is 99 ms,
			// rank 192 is 190 ms, rank 200 is 198 ms.
			Total: ToolStats{Calls: 202, Errors: 6, P50: ms(99), P95: ms(190), P99: ms(198), Max: ms(200), BytesOut: 550,
				ErrorsByCode: map[string]int64{"TIMEOUT": 4, UnknownErrorCode: 1, "INVALID_PARAMS": 1}},
			First: at(0), Last: at(300),
		}},
		{"one tool", UsageQuery{Tool: "fast"}, Usage{
			Tools: []ToolStats{fast},
			Total: ToolStats{Calls: 2, Errors: 1, P50: time.Microsecond, P95: 3 * time.Microsecond, P99: 3 * time.Microsecond, Max: 3 * time.Microsecond, BytesOut: 150,
				ErrorsByCode: map[string]int64{"INVALID_PARAMS": 1}},
			First: at(0), Last: at(300),
		}},
		{"since", UsageQuery{Since: at(200)}, Usage{
			Tools: []ToolStats{
				{Tool: "fast", Calls: 1, Errors: 1, P50: 3 * time.Microsecond, P95: 3 * time.Microsecond, P99: 3 * time.Microsecond, Max: 3 * time.Microsecond, BytesOut: 50,
					ErrorsByCode: map[string]int64{"INVALID_PARAMS": 1}},
				{Tool: "slow", Calls: 1, Errors: 1, P50: ms(200), P95: ms(200), P99: ms(200), Max: ms(200), BytesOut: 2,
					ErrorsByCode: map[string]int64{"TIMEOUT": 1}},
			},
			Total: ToolStats{Calls: 2, Errors: 2, P50: 3 * time.Microsecond, P95: ms(200), P99: ms(200), Max: ms(200), BytesOut: 52,
				ErrorsByCode: map[string]int64{"TIMEOUT": 1, "INVALID_PARAMS": 1}},
			First: at(200), Last: at(300),
		}},
		{"unknown tool", UsageQuery{Tool: "nope"}, Usage{}},
		{"future", UsageQuery{Since: at(1000)}, Usage{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Usage(ctx, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("Usage (-got +want):\n%s", diff)
			}
		})
	}
	if got := s.CallRetention(); got != 500 {
		t.Errorf("CallRetention = %d, want 500", got)
	}
}

// Usage agrees with a plain sort-and-index over random records, for every
// tool and in total.
func TestUsageMatchesReference(t *testing.T) {
	clk := newClock()
	s := openTest(t, &Options{Now: clk.Now})
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	byTool := map[string][]time.Duration{}
	var all []time.Duration
	for i := range 777 {
		tool := []string{"a", "b", "c"}[rng.IntN(3)]
		d := time.Duration(rng.IntN(5000)) * time.Microsecond
		byTool[tool], all = append(byTool[tool], d), append(all, d)
		if err := s.RecordCall(ctx, CallRecord{Time: clk.Now().Add(time.Duration(i)), Tool: tool, Outcome: OutcomeOK, Duration: d}); err != nil {
			t.Fatal(err)
		}
	}
	ref := func(ds []time.Duration, p int) time.Duration {
		ds = slices.Sorted(slices.Values(ds))
		i := 0 // the smallest 0-based index with at least p% of ds at or below it
		for 100*(i+1) < p*len(ds) {
			i++
		}
		return ds[i]
	}
	u, err := s.Usage(ctx, UsageQuery{})
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, st ToolStats, ds []time.Duration) {
		got := []time.Duration{st.P50, st.P95, st.P99, st.Max}
		want := []time.Duration{ref(ds, 50), ref(ds, 95), ref(ds, 99), slices.Max(ds)}
		if diff := cmp.Diff(got, want); diff != "" || st.Calls != int64(len(ds)) {
			t.Errorf("%s: %d calls, percentiles (-got +want):\n%s", name, st.Calls, diff)
		}
	}
	for _, st := range u.Tools {
		check(st.Tool, st, byTool[st.Tool])
	}
	check("total", u.Total, all)
	if len(u.Tools) != 3 {
		t.Errorf("got %d tools, want 3", len(u.Tools))
	}
}
