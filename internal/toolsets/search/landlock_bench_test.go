package search

import (
	"context"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/landlock"
)

// BenchmarkRgUnderLandlock is what Landlock costs the rg a search runs:
// rg with search_content's and search_files' argv over GOROOT/src, three
// ways in turns in each iteration, reporting the CPU of each (ms a run):
//
//   - plain-ms: not confined;
//   - confined-ms: confined as runRg confines it (read below the searched
//     directory, the loader and libraries, its program; truncation refused
//     by the seccomp filter, the truncate right left out of the ruleset);
//   - truncate-ms: the same, also granting LANDLOCK_ACCESS_FS_TRUNCATE below
//     the searched directory. A measurement only, never a policy: rg could
//     then truncate what it searches, since a policy granting it gets no
//     filter. Until the filter, confined-ms handled the right and granted
//     it nowhere, so on each open Landlock looked it up with the read (for
//     a later ftruncate) and walked from every file rg opened up to the root
//     of the mount namespace: the difference to truncate-ms was that walk,
//     and with the filter there should be none.
func BenchmarkRgUnderLandlock(b *testing.B) {
	if landlock.ABI() == 0 {
		b.Skip(landlock.ErrUnsupported)
	}
	src := goSrc(b)
	dir, err := os.Open(src)
	if err != nil {
		b.Fatal(err)
	}
	defer dir.Close()
	ex, err := execx.New(&execx.Options{Allowed: []string{"rg"}})
	if err != nil {
		b.Fatal(err)
	}
	searches := []struct {
		name string
		args []string
	}{
		{"content-few", rgContentArgs(&options{}, contentIn{Pattern: `func \(\w+ \*\w+\) Close\(\)`}, false)},
		{"files", append(rgBase(&options{}), "--files", "--null")},
	}
	ways := []struct {
		name string
		pol  *landlock.Policy
	}{
		{"plain-ms", nil},
		{"confined-ms", &landlock.Policy{Read: []*os.File{dir}}},
		{"truncate-ms", &landlock.Policy{Rules: []landlock.Rule{{File: dir, Access: landlock.Read | unix.LANDLOCK_ACCESS_FS_TRUNCATE}}}},
	}
	for _, s := range searches {
		b.Run(s.name, func(b *testing.B) {
			cpu := make([]time.Duration, len(ways))
			for i := 0; b.Loop(); i++ {
				for j := range ways {
					w := (i + j) % len(ways) // each way first in turn
					_, c0 := cpuTimes()
					cmd := execx.Cmd{Name: "rg", Args: append(append([]string{}, s.args...), "--", "."), Dir: src, Confine: ways[w].pol, MaxOutput: 1 << 20}
					if _, err := ex.Run(context.Background(), cmd); err != nil {
						b.Fatal(err)
					}
					_, c1 := cpuTimes()
					cpu[w] += c1 - c0
				}
			}
			for j, w := range ways {
				b.ReportMetric(float64(cpu[j].Microseconds())/1000/float64(b.N), w.name)
			}
		})
	}
}
