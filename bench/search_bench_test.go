package bench

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// manyPattern has about 2,500 hits in 600 files of GOROOT/src: more than an
// answer shows, so the call also keeps them all in a handle.
const manyPattern = `errors\.New\(`

// BenchmarkSearchVsRg is issue 20's point 3: search_content and
// search_files through the stdio client against ripgrep run directly on the
// same copy of GOROOT/src with the same query, one call of each after the
// other, so that the shared machine's load weighs on both alike (ratio is
// the median of the per-pair ratios; target at most 1.1).
//
//   - content-few: a regex with about 180 hits, no context lines, all of
//     them shown, against rg --line-number.
//   - content-many: manyPattern with the default 3 context lines and the
//     first 200 hits shown (every hit kept in a handle), against
//     rg --line-number --context=3.
//   - files: names containing _test.go (about 1,800, so also a handle),
//     against rg --files.
//
// Beside wall time, which on a busy two-core machine mostly measures the
// neighbours, it reports CPU summed over the run: the server's own
// (server-ms) with the rg it ran (server-rg-ms), the client's (client-ms:
// the whole benchmark process while the call runs, decoding included),
// rg's run directly (rg-ms), and cpu-ratio, all three of the call's over
// rg's: what the call costs beside rg when rg alone keeps both cores busy.
func BenchmarkSearchVsRg(b *testing.B) {
	src := goSrc(b)
	cs, cmd := connectRoot(b, src)
	for _, q := range searchVsRg {
		b.Run(q.name, func(b *testing.B) {
			loopPairsCPU(b, cmd.Process.Pid, func() { callTool(b, cs, q.tool, q.args) }, func() { rgDirect(b, src, q.rg...) })
		})
	}
}

// searchVsRg are BenchmarkSearchVsRg's queries, each with the rg command
// line that answers the same question.
var searchVsRg = []struct {
	name string
	tool string
	args map[string]any
	rg   []string
}{
	{"content-few", "search_content", map[string]any{"pattern": benchPattern, "ignore_case": false, "context_lines": 0, "max_results": 200, "engine": "rg"},
		[]string{"--line-number", "--regexp=" + benchPattern}},
	{"content-many", "search_content", map[string]any{"pattern": manyPattern, "max_results": 200, "engine": "rg"},
		[]string{"--line-number", "--context=3", "--regexp=" + manyPattern}},
	{"files", "search_files", map[string]any{"pattern": "_test.go", "engine": "rg"},
		[]string{"--files"}},
}

// loopPairsCPU is loopPairs, also reporting the CPU that f costs the
// server (pid) and its children and this process, against what base's
// children cost.
func loopPairsCPU(b *testing.B, pid int, f, base func()) {
	loopPairsCPUOf(b, pid, func() time.Duration { self, _ := ownCPU(); return self }, timing(f), timing(base))
}

// loopPairsCPUOf is loopPairsTimed, also reporting the CPU that f costs
// the server (pid) and its children and the client (clientCPU: its CPU
// used so far), against what base's children cost this process.
func loopPairsCPUOf(b *testing.B, pid int, clientCPU func() time.Duration, f, base func() time.Duration) {
	var server, serverRg, client, rg time.Duration
	loopPairsTimed(b, func() time.Duration {
		s0, r0 := processCPU(b, pid), childrenCPU(b, pid)
		c0 := clientCPU()
		took := f()
		client += clientCPU() - c0
		server += processCPU(b, pid) - s0
		serverRg += childrenCPU(b, pid) - r0
		return took
	}, func() time.Duration {
		_, k0 := ownCPU()
		took := base()
		_, k1 := ownCPU()
		rg += k1 - k0
		return took
	})
	n := float64(b.N)
	b.ReportMetric(float64(server.Milliseconds())/n, "server-ms")
	b.ReportMetric(float64(serverRg.Milliseconds())/n, "server-rg-ms")
	b.ReportMetric(float64(client.Milliseconds())/n, "client-ms")
	b.ReportMetric(float64(rg.Milliseconds())/n, "rg-ms")
	b.ReportMetric(float64(server+serverRg+client)/float64(rg), "cpu-ratio")
}

// childrenCPU is the user and system CPU time of pid's children that it
// has waited for, from /proc/pid/stat (cutime and cstime, in clock ticks).
func childrenCPU(b *testing.B, pid int) time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	f := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+2:]))
	cutime, err1 := strconv.ParseInt(f[13], 10, 64)
	cstime, err2 := strconv.ParseInt(f[14], 10, 64)
	if err1 != nil || err2 != nil {
		b.Fatalf("/proc/%d/stat: %v %v", pid, err1, err2)
	}
	return time.Duration(cutime+cstime) * 10 * time.Millisecond
}

// ownCPU is the CPU this process and its waited-for children have used.
func ownCPU() (self, children time.Duration) {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	return self, time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
