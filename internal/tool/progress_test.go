package tool

import (
	"context"
	"math"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// sentProgress records what a Call's ProgressFunc was handed.
type sentProgress struct {
	mu   sync.Mutex
	sent [][2]float64 // progress, total
}

func (s *sentProgress) fn(_ context.Context, progress, total float64, _ string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent = append(s.sent, [2]float64{progress, total})
}

func (s *sentProgress) values() [][2]float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][2]float64(nil), s.sent...)
}

// The protocol wants progress to increase with each notification: what the
// client gets must, whatever a tool reports (a final value repeated on every
// tick while perf finishes, an elapsed time that overshoots its total).
func TestProgressStrictlyIncreasesAndStaysWithinTotal(t *testing.T) {
	tests := []struct {
		name    string
		reports [][2]float64
		want    [][2]float64
	}{
		{"final repeated", [][2]float64{{4000, 4000}, {4000, 4000}, {4000, 4000}}, [][2]float64{{4000, 4000}}},
		{"overshoot is sent as the total", [][2]float64{{3001, 3000}}, [][2]float64{{3000, 3000}}},
		{"overshoot after the total adds nothing", [][2]float64{{3000, 3000}, {3002, 3000}}, [][2]float64{{3000, 3000}}},
		{"no total: a repeat is dropped", [][2]float64{{5, 0}, {5, 0}}, [][2]float64{{5, 0}}},
		{"not a number is dropped", [][2]float64{{math.NaN(), 10}, {10, 10}}, [][2]float64{{10, 10}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s sentProgress
			c := &Call{progress: s.fn}
			for _, r := range tc.reports {
				c.Progress(context.Background(), r[0], r[1], "")
			}
			if diff := cmp.Diff(tc.want, s.values()); diff != "" {
				t.Errorf("sent (-want +got):\n%s", diff)
			}
		})
	}
}

// A value below the last one sent is dropped even once the rate limit
// would let it through. In a synctest bubble the sleep is exactly the
// limit on the fake clock.
func TestProgressNeverGoesBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var s sentProgress
		c := &Call{progress: s.fn}
		c.Progress(context.Background(), 500, 1000, "")
		time.Sleep(progressEvery) // past the rate limit, so only the order can drop it
		c.Progress(context.Background(), 400, 1000, "")
		c.Progress(context.Background(), 1000, 1000, "")
		want := [][2]float64{{500, 1000}, {1000, 1000}}
		if diff := cmp.Diff(want, s.values()); diff != "" {
			t.Errorf("sent (-want +got):\n%s", diff)
		}
	})
}

// Updates closer than progressEvery are dropped and the next one after it
// is sent; the final one is sent at once. On the fake clock of a synctest
// bubble the count is exact: with the real one a slow machine lets more
// through.
func TestProgressThrottled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var s sentProgress
		c := &Call{progress: s.fn}
		for i := range 100 {
			c.Progress(context.Background(), float64(i), 100, "")
		}
		time.Sleep(progressEvery - time.Nanosecond)
		c.Progress(context.Background(), 100.5, 200, "still within the limit: dropped")
		time.Sleep(time.Nanosecond)
		c.Progress(context.Background(), 101, 200, "")
		c.Progress(context.Background(), 200, 200, "done")
		want := [][2]float64{{0, 100}, {101, 200}, {200, 200}}
		if diff := cmp.Diff(want, s.values()); diff != "" {
			t.Errorf("sent (-want +got):\n%s", diff)
		}
		silent := &Call{}
		silent.Progress(context.Background(), 1, 2, "no token: no-op")
	})
}

// Reports from several goroutines (side-by-side traces) still reach the
// client in increasing order.
func TestProgressConcurrentReportsStayOrdered(t *testing.T) {
	var s sentProgress
	c := &Call{progress: s.fn}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				c.Progress(context.Background(), float64(i*8+g), 1600, "")
			}
			c.Progress(context.Background(), 1600, 1600, "")
		})
	}
	wg.Wait()
	got := s.values()
	for i := 1; i < len(got); i++ {
		if got[i][0] <= got[i-1][0] {
			t.Fatalf("notification %d: progress %v after %v", i, got[i][0], got[i-1][0])
		}
	}
	if last := got[len(got)-1]; last != [2]float64{1600, 1600} {
		t.Errorf("last notification %v, want the total", last)
	}
}
