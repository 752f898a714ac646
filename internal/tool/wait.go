package tool

import (
	"context"
	"time"
)

// Wait waits d, or until ctx ends (returning its error), and calls tick,
// when not nil, with the time elapsed at every step of the way: at step,
// 2*step... from the start, and at d. The steps are counted from the start,
// not from the last tick, so a tick's own work (a sampler's reading) does
// not make the next come late. It is the one way hostmcp waits out a
// duration with something to do on the way: a sampling tool reads between
// ticks, and any tick can report progress (Call.Elapsed).
func Wait(ctx context.Context, d, step time.Duration, tick func(elapsed time.Duration)) error {
	if step <= 0 {
		step = d
	}
	start := time.Now()
	next := min(step, d)
	t := time.NewTimer(next)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		if tick != nil {
			tick(time.Since(start))
		}
		if next >= d {
			return nil
		}
		next = min(next+step, d)
		t.Reset(time.Until(start.Add(next)))
	}
}

// Sleep waits for d or until ctx ends, whichever is first: Wait with
// nothing to do on the way, for a wait too short to report.
func Sleep(ctx context.Context, d time.Duration) error {
	return Wait(ctx, d, d, nil)
}

// Elapsed returns a tick that reports the time elapsed against d as the
// call's progress, with what as its message: for Wait, and for the eBPF
// traces, which call it as their programs run.
func (c *Call) Elapsed(ctx context.Context, d time.Duration, what string) func(elapsed time.Duration) {
	return func(elapsed time.Duration) {
		c.Progress(ctx, float64(min(elapsed, d).Milliseconds()), float64(d.Milliseconds()), what)
	}
}

// Wait waits d, reporting the time elapsed as the call's progress as often
// as Progress lets a report through, and stops at once when ctx ends.
func (c *Call) Wait(ctx context.Context, d time.Duration, what string) error {
	return Wait(ctx, d, progressEvery, c.Elapsed(ctx, d, what))
}

// ProgressWhile reports the time elapsed against d as the call's progress
// while a program times the wait itself (perf recording, bpftrace), until d
// has passed or stop is called; after d, what is left is the program
// writing its results, with nothing to report.
func (c *Call) ProgressWhile(ctx context.Context, d time.Duration, what string) (stop func()) {
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = Wait(wctx, d, progressEvery, c.Elapsed(ctx, d, what))
	}()
	return func() {
		cancel()
		<-done
	}
}
