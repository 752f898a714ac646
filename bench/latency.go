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
	var df, dbase []time.Duration
	var ratios []float64
	for i := 0; b.Loop(); i++ {
		var tf, tbase time.Duration
		if i%2 == 0 {
			tf, tbase = timed(f), timed(base)
		} else {
			tbase, tf = timed(base), timed(f)
		}
		df, dbase = append(df, tf), append(dbase, tbase)
		ratios = append(ratios, float64(tf)/float64(tbase))
	}
	if len(df) == 0 {
		return
	}
	sort.Slice(df, func(i, j int) bool { return df[i] < df[j] })
	sort.Slice(dbase, func(i, j int) bool { return dbase[i] < dbase[j] })
	sort.Float64s(ratios)
	b.ReportMetric(float64(df[len(df)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(dbase[len(dbase)/2].Microseconds())/1000, "base-p50-ms")
	b.ReportMetric(ratios[len(ratios)/2], "ratio")
}

func timed(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}
