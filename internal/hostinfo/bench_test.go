package hostinfo

import (
	"context"
	"testing"
	"time"
)

// BenchmarkSnapshot measures a live Snapshot with the default 100 ms window; the
// target is well under 150 ms per call, so the overhead beyond the window is
// reported as its own metric.
func BenchmarkSnapshot(b *testing.B) {
	h := New(Roots{})
	var total time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := h.Snapshot(b.Context(), nil); err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
	}
	b.ReportMetric(float64((total/time.Duration(b.N))-defaultWindow)/float64(time.Millisecond), "ms-overhead/op")
}

// BenchmarkFilesystems is what perf_snapshot adds for file system
// capacity: the mount table, a statfs per real mount and ext4's counters.
func BenchmarkFilesystems(b *testing.B) {
	h := New(Roots{})
	for b.Loop() {
		h.Filesystems(context.Background(), 85)
	}
}

// BenchmarkCgroupLimits is what perf_snapshot adds at each end of its
// interval for the cgroups with limits: a walk of every mounted hierarchy
// and the limit files of each cgroup.
func BenchmarkCgroupLimits(b *testing.B) {
	h := New(Roots{})
	for b.Loop() {
		h.readCgroupLimits()
	}
}
