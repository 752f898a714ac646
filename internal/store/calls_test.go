package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestRecentCalls(t *testing.T) {
	clk := newClock()
	s := openTest(t, &Options{Now: clk.Now})
	ctx := context.Background()
	t0 := clk.Now()
	at := func(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }
	records := []CallRecord{
		{Time: at(1), Tool: "fs_read", Session: "s1", ArgsSummary: `path="/etc/hosts"`, Outcome: OutcomeOK, Duration: 3 * time.Millisecond, BytesOut: 120},
		{Time: at(2), Tool: "proc_kill", Session: "s1", ArgsSummary: "pid=1", Outcome: OutcomeError, ErrorCode: "PERMISSION_DENIED", Duration: time.Millisecond},
		{Time: at(4), Tool: "fs_read", Session: "s2", Outcome: OutcomeError, ErrorCode: "NOT_FOUND"},
		{Time: at(3), Tool: "sys_snapshot", Outcome: OutcomeOK, Duration: 40 * time.Millisecond, BytesOut: 9000},
		{Time: at(4), Tool: "fs_read", Outcome: OutcomeOK}, // same time as #2: later insert first
		{Time: at(0), Tool: "fs_delete", Outcome: OutcomeError, ErrorCode: "DECLINED", Confirmation: "declined"},
	}
	for _, r := range records {
		if err := s.RecordCall(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		q    CallQuery
		want []int // indexes into records, in the expected order
	}{
		{"all, newest first", CallQuery{}, []int{4, 2, 3, 1, 0, 5}},
		{"limit", CallQuery{Limit: 2}, []int{4, 2}},
		{"by tool", CallQuery{Tool: "fs_read"}, []int{4, 2, 0}},
		{"by outcome", CallQuery{Outcome: OutcomeError}, []int{2, 1, 5}},
		{"since", CallQuery{Since: at(3)}, []int{4, 2, 3}},
		{"all filters", CallQuery{Since: at(2), Tool: "fs_read", Outcome: OutcomeError}, []int{2}},
		{"no match", CallQuery{Tool: "nope"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.RecentCalls(ctx, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			var want []CallRecord
			for _, i := range tc.want {
				want = append(want, records[i])
			}
			if diff := cmp.Diff(got, want, cmpopts.IgnoreFields(CallRecord{}, "ID")); diff != "" {
				t.Errorf("RecentCalls (-got +want):\n%s", diff)
			}
			for i := 1; i < len(got); i++ {
				if got[i].ID == 0 || got[i].ID == got[i-1].ID {
					t.Errorf("record IDs not set or repeated: %d, %d", got[i-1].ID, got[i].ID)
				}
			}
		})
	}
}

func TestRecordCallChecks(t *testing.T) {
	clk := newClock()
	s := openTest(t, &Options{Now: clk.Now})
	ctx := context.Background()
	tests := []struct {
		name    string
		r       CallRecord
		wantErr string
	}{
		{"no tool", CallRecord{Outcome: OutcomeOK}, "no tool name"},
		{"bad outcome", CallRecord{Tool: "x", Outcome: "maybe"}, "outcome must be"},
		{"empty outcome", CallRecord{Tool: "x"}, "outcome must be"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := s.RecordCall(ctx, tc.r)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("RecordCall error = %v, want one mentioning %q", err, tc.wantErr)
			}
		})
	}
	// A zero time is now; a long summary is cut to 200 characters.
	long := strings.Repeat("é", 500)
	if err := s.RecordCall(ctx, CallRecord{Tool: "x", Outcome: OutcomeOK, ArgsSummary: long}); err != nil {
		t.Fatal(err)
	}
	got, err := s.RecentCalls(ctx, CallQuery{Tool: "x"})
	if err != nil || len(got) != 1 {
		t.Fatalf("RecentCalls = %v, %v; want one record", got, err)
	}
	if !got[0].Time.Equal(clk.Now()) {
		t.Errorf("time = %v, want the clock's %v", got[0].Time, clk.Now())
	}
	sum := got[0].ArgsSummary
	if n := utf8.RuneCountInString(sum); n != maxArgsSummary || !strings.HasSuffix(sum, "…") || !utf8.ValidString(sum) {
		t.Errorf("summary of %d characters (ends %q), want %d ending in an ellipsis", n, sum[len(sum)-6:], maxArgsSummary)
	}
}

func TestCapSummary(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", ""},
		{"pid=42", "pid=42"},
		{strings.Repeat("a", 200), strings.Repeat("a", 200)},
		{strings.Repeat("a", 201), strings.Repeat("a", 199) + "…"},
		{"bad \xff byte", "bad \uFFFD byte"},
	}
	for _, tc := range tests {
		if got := capSummary(tc.in); got != tc.want {
			t.Errorf("capSummary(%.20q...) = %.20q..., want %.20q...", tc.in, got, tc.want)
		}
	}
}

func TestSweepPrunesCalls(t *testing.T) {
	clk := newClock()
	s := openTest(t, &Options{Now: clk.Now, MaxCalls: 3})
	ctx := context.Background()
	for i := range 5 {
		clk.Advance(time.Second)
		if err := s.RecordCall(ctx, CallRecord{Tool: "t", Outcome: OutcomeOK, BytesOut: int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := s.RecentCalls(ctx, CallQuery{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var kept []int64
	for _, r := range got {
		kept = append(kept, r.BytesOut)
	}
	if diff := cmp.Diff(kept, []int64{4, 3, 2}); diff != "" {
		t.Errorf("records kept (-got +want):\n%s", diff)
	}
}

func TestCallStats(t *testing.T) {
	clk := newClock()
	s := openTest(t, &Options{Now: clk.Now})
	ctx := context.Background()
	start := clk.Now()
	for i := 1; i <= 20; i++ {
		r := CallRecord{Time: start.Add(time.Duration(i) * time.Second), Tool: "fs_read", Outcome: OutcomeOK, Duration: time.Duration(21-i) * time.Millisecond, BytesOut: 10}
		if i%10 == 0 {
			r.Outcome, r.ErrorCode = OutcomeError, "NOT_FOUND"
		}
		if err := s.RecordCall(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.RecordCall(ctx, CallRecord{Time: start, Tool: "a_tool", Outcome: OutcomeOK, Duration: time.Second}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		since time.Time
		want  []ToolStats
	}{
		{"all", time.Time{}, []ToolStats{
			{Tool: "a_tool", Calls: 1, P50: time.Second, P95: time.Second, P99: time.Second, Max: time.Second},
			{Tool: "fs_read", Calls: 20, Errors: 2, P50: 10 * time.Millisecond, P95: 19 * time.Millisecond, P99: 20 * time.Millisecond, Max: 20 * time.Millisecond, BytesOut: 200,
				ErrorsByCode: map[string]int64{"NOT_FOUND": 2}},
		}},
		{"since", start.Add(11 * time.Second), []ToolStats{
			{Tool: "fs_read", Calls: 10, Errors: 1, P50: 5 * time.Millisecond, P95: 10 * time.Millisecond, P99: 10 * time.Millisecond, Max: 10 * time.Millisecond, BytesOut: 100,
				ErrorsByCode: map[string]int64{"NOT_FOUND": 1}},
		}},
		{"nothing", start.Add(time.Hour), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.CallStats(ctx, tc.since)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("CallStats (-got +want):\n%s", diff)
			}
		})
	}
}

// A database of the version before confirmations keeps its call records:
// they read back with no confirmation, and new ones record theirs.
func TestCallsSurviveTheConfirmationMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hostmcp.db")
	s := openTest(t, &Options{Path: path})
	// Back to version 2: the column and the later tables go, as if an
	// older hostmcp made it.
	for _, q := range []string{`ALTER TABLE calls DROP COLUMN confirmation`, `DROP TABLE baselines`, `PRAGMA user_version = 2`,
		`INSERT INTO calls(time, tool, session, args_summary, outcome, error_code, duration, bytes_out) VALUES (1, 'fs_read', 's', '', 'ok', '', 0, 0)`} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()
	s = openTest(t, &Options{Path: path})
	if err := s.RecordCall(ctx, CallRecord{Tool: "fs_delete", Outcome: OutcomeOK, Confirmation: "confirmed"}); err != nil {
		t.Fatal(err)
	}
	got, err := s.RecentCalls(ctx, CallQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Confirmation != "confirmed" || got[1].Tool != "fs_read" || got[1].Confirmation != "" {
		t.Errorf("records after the migration: %+v", got)
	}
	if err := s.RecordCall(ctx, CallRecord{Tool: "fs_delete", Outcome: OutcomeOK, Confirmation: "Confirmed; DROP"}); err == nil {
		t.Error("a confirmation that is not a lower-case word was recorded")
	}
}
