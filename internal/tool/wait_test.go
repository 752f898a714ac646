package tool

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Wait ticks at every step counted from its start, however long a tick
// takes, ticks once more at the end when d is not a whole number of steps,
// and returns when d has passed.
func TestWaitTicksOnTheStepsAndAtTheEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var got []time.Duration
		err := Wait(context.Background(), 1050*time.Millisecond, 250*time.Millisecond, func(el time.Duration) {
			got = append(got, el)
			time.Sleep(30 * time.Millisecond) // a sampler's reading
		})
		if err != nil {
			t.Fatal(err)
		}
		want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, 750 * time.Millisecond, time.Second, 1050 * time.Millisecond}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ticks (-want +got):\n%s", diff)
		}
	})
}

// A cancelled wait returns the context's error at once, with no tick after.
func TestWaitStopsOnCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		ticks := 0
		go func() {
			time.Sleep(600 * time.Millisecond)
			cancel()
		}()
		start := time.Now()
		err := Wait(ctx, time.Hour, 250*time.Millisecond, func(time.Duration) { ticks++ })
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
		if el := time.Since(start); el != 600*time.Millisecond || ticks != 2 {
			t.Errorf("returned after %v with %d ticks, want 600ms and 2", el, ticks)
		}
	})
}

// A call's Wait reports the time elapsed against the whole as progress,
// the last report at the total.
func TestCallWaitReportsProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var got [][2]float64
		c := &Call{progress: func(_ context.Context, p, total float64, _ string) { got = append(got, [2]float64{p, total}) }}
		if err := c.Wait(context.Background(), time.Second, "sampling"); err != nil {
			t.Fatal(err)
		}
		want := [][2]float64{{250, 1000}, {500, 1000}, {750, 1000}, {1000, 1000}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("progress and total (-want +got):\n%s", diff)
		}
	})
}

// ProgressWhile reports until stopped, and nothing after stop returns.
func TestProgressWhileStops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := 0
		c := &Call{progress: func(context.Context, float64, float64, string) { n++ }}
		stop := c.ProgressWhile(context.Background(), 10*time.Second, "recording")
		time.Sleep(600 * time.Millisecond)
		stop()
		at := n
		time.Sleep(time.Second)
		if at != 2 || n != at {
			t.Errorf("%d reports by the stop (want 2), %d a second later", at, n)
		}
	})
}
