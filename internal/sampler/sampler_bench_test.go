package sampler

import (
	"testing"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// BenchmarkReading is one background reading of the live host, what the
// sampler pays every Every (2 s): counters with the cgroup limits, and
// memory and load; withFS adds file system capacity, read every 30 s.
func BenchmarkReading(b *testing.B) {
	for _, withFS := range []bool{false, true} {
		name := "counters"
		if withFS {
			name = "counters+filesystems"
		}
		b.Run(name, func(b *testing.B) {
			s := New(hostinfo.New(hostinfo.Roots{}), nil)
			b.Cleanup(s.Close)
			b.ReportAllocs()
			for b.Loop() {
				if !s.read(withFS) {
					b.Fatal(s.err)
				}
			}
		})
	}
}
