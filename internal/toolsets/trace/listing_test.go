package trace

import (
	"slices"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// A sample of a long run of records holds records from all of it, each
// at most once.
func TestSampleCoversTheWholeRun(t *testing.T) {
	s := newSample[int](100)
	for i := range 10_000 {
		s.add(i)
	}
	if s.seen != 10_000 || len(s.items) != 100 {
		t.Fatalf("seen %d, kept %d", s.seen, len(s.items))
	}
	quarters := [4]int{}
	slices.Sort(s.items)
	for i, v := range s.items {
		if i > 0 && v == s.items[i-1] {
			t.Fatalf("%d kept twice", v)
		}
		quarters[v/2500]++
	}
	// Each quarter holds 25 on average; none empty but with odds of 1e-12.
	for q, n := range quarters {
		if n == 0 {
			t.Fatalf("nothing from quarter %d: %v", q, quarters)
		}
	}
	few := newSample[int](100)
	for i := range 10 {
		few.add(i)
	}
	if !slices.Equal(few.items, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Fatalf("fewer than the sample holds are all kept: %v", few.items)
	}
}

type fitRow struct {
	Name string `json:"name"`
}

type fitOut struct {
	Total     int      `json:"total"`
	Table     []fitRow `json:"table"`
	TableOf   listed   `json:"table_shown"`
	Records   []fitRow `json:"records"`
	RecordsOf listed   `json:"records_shown"`
}

func rows(n int, prefix string) []fitRow {
	out := make([]fitRow, n)
	for i := range out {
		out[i] = fitRow{Name: prefix + strings.Repeat("x", 40) + string(rune('a'+i%26))}
	}
	return out
}

// An answer over the budget loses records first, spread over the window
// (first and last kept), then table rows from the bottom, and says how
// many of how many each list shows.
func TestFitAnswer(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		budget               int
		wantTable, wantAll   bool
		wantRecordsAtMost    int
		wantRecordsAtLeast   int
		wantTableRowsAtLeast int
	}{
		{name: "fits", budget: 1 << 20, wantTable: true, wantAll: true, wantRecordsAtLeast: 500},
		{name: "records cut", budget: 8 << 10, wantTable: true, wantRecordsAtLeast: 50, wantRecordsAtMost: 499},
		{name: "records gone, table cut", budget: 600, wantRecordsAtMost: 0, wantTableRowsAtLeast: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := fitOut{Total: 5000, Table: rows(20, "t"), Records: rows(500, "r")}
			allRecords := out.Records
			records := []cut{spread(&out.Records, 5000, &out.RecordsOf)}
			tables := []cut{head(&out.Table, 80, "count", &out.TableOf)}
			fitAnswer(&out, tc.budget, records, tables)
			js, err := tool.MarshalJSON(out)
			if err != nil {
				t.Fatal(err)
			}
			if len(js) > tc.budget {
				t.Fatalf("%d bytes over a budget of %d", len(js), tc.budget)
			}
			if out.RecordsOf.Shown != len(out.Records) || out.RecordsOf.Of != 5000 || out.TableOf.Shown != len(out.Table) || out.TableOf.Of != 80 {
				t.Fatalf("shown: records %+v (%d), table %+v (%d)", out.RecordsOf, len(out.Records), out.TableOf, len(out.Table))
			}
			if out.RecordsOf.How != howSample || out.TableOf.How != "the first by count" {
				t.Fatalf("how: %q, %q", out.RecordsOf.How, out.TableOf.How)
			}
			if tc.wantTable && len(out.Table) != 20 {
				t.Fatalf("the table was cut before the records: %d rows", len(out.Table))
			}
			n := len(out.Records)
			if n < tc.wantRecordsAtLeast || (!tc.wantAll && n > tc.wantRecordsAtMost) || len(out.Table) < tc.wantTableRowsAtLeast {
				t.Fatalf("%d records, %d table rows in %d bytes", n, len(out.Table), len(js))
			}
			if n > 1 && (out.Records[0] != allRecords[0] || out.Records[n-1] != allRecords[499]) {
				t.Fatalf("a shortened list keeps the first and last records")
			}
		})
	}
}

// A list shown whole says so, whatever it was cut by.
func TestNewListed(t *testing.T) {
	if got := newListed(3, 3, howSample); got.How != howAll {
		t.Fatalf("%+v", got)
	}
	if got := newListed(3, 10, howSample); got.How != howSample || got.Shown != 3 || got.Of != 10 {
		t.Fatalf("%+v", got)
	}
}
