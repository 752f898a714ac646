package bench

import (
	"sort"
	"testing"
	"time"
)

// loopLatency runs f once per benchmark iteration and reports the median
// and 95th percentile of single calls besides the mean, since targets are
// stated as p50.
func loopLatency(b *testing.B, f func()) {
	var d []time.Duration
	for b.Loop() {
		start := time.Now()
		f()
		d = append(d, time.Since(start))
	}
	reportLatency(b, d)
}

// reportLatency reports the median and 95th percentile of samples taken
// by a benchmark that times only part of each iteration.
func reportLatency(b *testing.B, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(d[len(d)*95/100].Microseconds())/1000, "p95-ms")
}

// loopPairs times f and its baseline base one after the other in each
// iteration, alternating which goes first, so that a machine shared with
// other work weighs on both alike. It reports both medians and the median
// of the iterations' ratios f/base, the figure targets are stated in.
func loopPairs(b *testing.B, f, base func()) {
	loopPairsTimed(b, timing(f), timing(base))
}

// loopPairsTimed is loopPairs for calls that say how long they took, such
// as those the TypeScript driver times around the SDK's own call.
func loopPairsTimed(b *testing.B, f, base func() time.Duration) {
	var df, dbase []time.Duration
	for i := 0; b.Loop(); i++ {
		var tf, tbase time.Duration
		if i%2 == 0 {
			tf, tbase = f(), base()
		} else {
			tbase, tf = base(), f()
		}
		df, dbase = append(df, tf), append(dbase, tbase)
	}
	reportPairs(b, df, dbase)
}

// reportPairs reports the medians of df and dbase, samples taken in pairs
// (df[i] beside dbase[i]), and the median of the pairs' ratios df/dbase.
func reportPairs(b *testing.B, df, dbase []time.Duration) {
	if len(df) == 0 {
		return
	}
	ratios := make([]float64, len(df))
	for i := range df {
		ratios[i] = float64(df[i]) / float64(dbase[i])
	}
	sort.Float64s(ratios)
	b.ReportMetric(p50ms(df), "p50-ms")
	b.ReportMetric(p50ms(dbase), "base-p50-ms")
	b.ReportMetric(ratios[len(ratios)/2], "ratio")
}

// p50ms is the median of d in milliseconds, to the microsecond; it sorts d.
func p50ms(d []time.Duration) float64 {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return float64(d[len(d)/2].Microseconds()) / 1000
}

// timing is f made to say how long it took.
func timing(f func()) func() time.Duration {
	return func() time.Duration { return timed(f) }
}

func timed(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}
