package bench

import (
	"testing"
	"time"
)

// BenchmarkPerfSnapshotStdio is perf_snapshot with a 100 ms interval through
// a stdio client: what it costs beyond the interval is its overhead.
func BenchmarkPerfSnapshotStdio(b *testing.B) {
	cs, _ := connect(b)
	loopLatency(b, func() { callTool(b, cs, "perf_snapshot", map[string]any{"interval_ms": 100}) })
}

// BenchmarkPerfUseCheckStdio is perf_use_check likewise.
func BenchmarkPerfUseCheckStdio(b *testing.B) {
	cs, _ := connect(b)
	loopLatency(b, func() { callTool(b, cs, "perf_use_check", map[string]any{"interval_ms": 100}) })
}

// BenchmarkSleep100ms is the baseline: the interval alone, as this machine's
// timers deliver it.
func BenchmarkSleep100ms(b *testing.B) {
	loopLatency(b, func() { time.Sleep(100 * time.Millisecond) })
}
