package hostinfo

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The window is the growth of total= over the interval; the averages are
// the second reading's, whatever they say.
func TestPSIWindow(t *testing.T) {
	t.Parallel()
	line := func(avg10, avg60 float64, total uint64) PSILine {
		return PSILine{Avg10: avg10, Avg60: avg60, TotalUS: total}
	}
	tests := []struct {
		name string
		a, b PSIStats
		dt   time.Duration
		want PSIWindow
	}{
		{"quiet after a burst: avg10 high, the window nearly idle",
			PSIStats{Some: line(40, 20, 5_000_000)}, PSIStats{Some: line(35.5, 19, 5_015_000)}, 1500 * time.Millisecond,
			PSIWindow{SomePercent: 1, SomeStallUS: 15_000, SomeTotalUS: 5_015_000, SomeAvg10: 35.5, SomeAvg60: 19}},
		{"saturated: avg10 still catching up",
			PSIStats{Some: line(2, 1, 0), Full: &PSILine{TotalUS: 100}}, PSIStats{Some: line(8, 2, 900_000), Full: &PSILine{Avg10: 3, TotalUS: 300_100}}, time.Second,
			PSIWindow{SomePercent: 90, FullPercent: 30, SomeStallUS: 900_000, FullStallUS: 300_000, SomeTotalUS: 900_000, FullTotalUS: 300_100,
				SomeAvg10: 8, SomeAvg60: 2, FullAvg10: 3}},
		{"a counter that went backwards counts nothing",
			PSIStats{Some: line(0, 0, 10)}, PSIStats{Some: line(0, 0, 5)}, time.Second,
			PSIWindow{SomeTotalUS: 5}},
		{"more stall than wall time (readings skewed) is capped at 100",
			PSIStats{Some: line(0, 0, 0)}, PSIStats{Some: line(0, 0, 3_000_000)}, 2 * time.Second,
			PSIWindow{SomePercent: 100, SomeStallUS: 3_000_000, SomeTotalUS: 3_000_000}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, psiWindow(tc.a, tc.b, tc.dt)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// A resource unread at the start has no window, only averages.
	p := pressureWindows(map[string]PSIStats{}, map[string]PSIStats{"io": {Some: line(7, 1, 99)}}, time.Second)
	if p == nil || p.IO.SomeStallUS != 0 || p.IO.SomeAvg10 != 7 {
		t.Errorf("io unread at the start: %+v", p)
	}
	if pressureWindows(nil, nil, time.Second) != nil {
		t.Error("no PSI gave a pressure section")
	}
}
