package proc

import (
	"context"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/procs"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// CPU percentages need two samples. A call soon after another uses the
// previous call's sample as the start of its window, so a listing costs one
// read of procfs; otherwise it samples twice, sampleWindow apart.
const (
	sampleWindow = 200 * time.Millisecond
	// minWindow is the shortest window worth a figure: a clock tick is 10 ms,
	// so shorter windows give 0 % or multiples of 100 %.
	minWindow = 100 * time.Millisecond
	// maxWindow is the oldest previous sample still used: past it the
	// figure would be an average over too long a time to mean "now".
	maxWindow = 30 * time.Second
)

// cpuSample is one reading of every process's CPU time, and the
// percentages computed from it.
type cpuSample struct {
	at     time.Time
	ticks  map[procs.Key]uint64
	pct    map[procs.Key]float64
	window time.Duration // the window pct was computed over
}

func newSample(t *procs.Table) *cpuSample {
	s := &cpuSample{at: t.At, ticks: make(map[procs.Key]uint64, len(t.Procs))}
	for i := range t.Procs {
		s.ticks[t.Procs[i].Key()] = t.Procs[i].CPUTicks
	}
	return s
}

// percentages computes each process's CPU percent (100 = one CPU) between
// prev and cur. A process absent from prev started inside the window: its
// whole CPU time counts, over its own lifetime since the window began.
func percentages(prev *cpuSample, cur *procs.Table, boot int64) map[procs.Key]float64 {
	out := make(map[procs.Key]float64, len(cur.Procs))
	window := cur.At.Sub(prev.at).Seconds()
	for i := range cur.Procs {
		p := &cur.Procs[i]
		k := p.Key()
		before, seen := prev.ticks[k]
		span := window
		if !seen {
			before = 0
			started := time.Unix(boot, 0).Add(time.Duration(p.StartTicks) * time.Second / procs.ClockTicks)
			if s := cur.At.Sub(started).Seconds(); s < span {
				span = s
			}
		}
		if span <= 0 || p.CPUTicks < before {
			out[k] = 0
			continue
		}
		out[k] = figures.Round1(float64(p.CPUTicks-before) / procs.ClockTicks / span * 100)
	}
	return out
}

// cpuTable reads the table and returns it with CPU percentages and the
// window they cover. read is the one procfs reading; it may be called twice.
func (s *Set) cpuTable(ctx context.Context, read func() (procs.Table, error)) (procs.Table, map[procs.Key]float64, time.Duration, error) {
	boot, err := s.reader.BootTime()
	if err != nil {
		return procs.Table{}, nil, 0, err
	}
	s.cpuMu.Lock()
	prev := s.prev
	s.cpuMu.Unlock()

	if prev == nil || time.Since(prev.at) > maxWindow {
		first, err := read()
		if err != nil {
			return procs.Table{}, nil, 0, err
		}
		prev = newSample(&first)
		if err := tool.Sleep(ctx, sampleWindow); err != nil {
			return procs.Table{}, nil, 0, err
		}
	}
	cur, err := read()
	if err != nil {
		return procs.Table{}, nil, 0, err
	}
	age := cur.At.Sub(prev.at)
	if age < minWindow && prev.pct != nil {
		// Too soon for a window of its own: reuse the previous call's
		// figures, and keep its sample so the next call's window is longer.
		return cur, reuse(prev, &cur, boot), prev.window, nil
	}
	next := newSample(&cur)
	next.pct = percentages(prev, &cur, boot)
	next.window = age
	s.cpuMu.Lock()
	if s.prev == nil || s.prev.at.Before(next.at) {
		s.prev = next
	}
	s.cpuMu.Unlock()
	return cur, next.pct, age, nil
}

// reuse gives each process the previous figure; processes that did not
// exist then get their average since they started, bounded by the same
// window.
func reuse(prev *cpuSample, cur *procs.Table, boot int64) map[procs.Key]float64 {
	fresh := percentages(&cpuSample{at: prev.at.Add(-prev.window)}, cur, boot)
	for k, v := range prev.pct {
		if _, ok := fresh[k]; ok {
			fresh[k] = v
		}
	}
	return fresh
}
