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
