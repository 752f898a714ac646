package bench

import (
	"testing"
	"time"
)

// BenchmarkCPUProfile5sStdio is a 5-second system-wide perf_cpu_profile
// through a stdio client: what it costs beyond 5 s is perf's start and
// stop, decoding the samples, and writing the three artifacts.
func BenchmarkCPUProfile5sStdio(b *testing.B) {
	cs, _ := connect(b)
	loopLatency(b, func() { callTool(b, cs, "perf_cpu_profile", map[string]any{"duration_seconds": 5}) })
}

// BenchmarkSleep5s is its baseline: the interval as this machine's timers
// deliver it.
func BenchmarkSleep5s(b *testing.B) {
	loopLatency(b, func() { time.Sleep(5 * time.Second) })
}
