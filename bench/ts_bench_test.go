package bench

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The benchmarks here measure issue 20's points 2, 3 and 4 as the issue
// did: through the official TypeScript SDK client over stdio (driver.mjs,
// which times each call around the SDK's own), the client most MCP hosts
// use, rather than the go-sdk client of the others, whose decoding of an
// answer costs more CPU than the server's making of it.

// BenchmarkFsReadWindowDeepTS is BenchmarkFsReadWindowDeep's repeated read
// (lines 50,000 to 50,099 of a 200,000-line, 23 MB file, target at most
// 2 ms) through the TypeScript SDK client: in each iteration the window,
// the same 100 lines as a file of their own (window.log) and a ping, in
// turns, so that all three see the same machine. It reports the window's
// p50 (p50-ms), window.log's (base-p50-ms), the median of their per-pair
// ratios, the ping's p50, the answer's size, the CPU a window's call costs
// node (the driver and the SDK: client-cpu-ms) and the server
// (server-cpu-ms), summed from /proc in 10 ms ticks over the run, and the
// server's peak RSS after the calls. With HOSTMCP_BENCH_BEFORE naming
// another build, repeat-vs-before is the same read from both builds
// interleaved (ratio: after / before), small-vs-before window.log's,
// each with the CPU a call costs either server.
func BenchmarkFsReadWindowDeepTS(b *testing.B) {
	root := b.TempDir()
	windowFiles(b, root)
	b.Run("repeat", func(b *testing.B) {
		d := startTSHostmcp(b, binary, root, unlimited)
		size := d.call(b, "fs_read", deepWindow).Bytes // builds the index
		var deep, same, ping []time.Duration
		var client, server time.Duration // node's and the server's CPU in the window's calls
		node := d.cmd.Process.Pid
		steps := []func(){
			func() {
				c0, s0 := processCPU(b, node), processCPU(b, d.serverPid)
				deep = append(deep, d.call(b, "fs_read", deepWindow).took())
				client += processCPU(b, node) - c0
				server += processCPU(b, d.serverPid) - s0
			},
			func() { same = append(same, d.call(b, "fs_read", sameLines).took()) },
			func() { ping = append(ping, d.ping(b)) },
		}
		for i := 0; b.Loop(); i++ {
			for j := range steps {
				steps[(i+j)%len(steps)]()
			}
		}
		reportPairs(b, deep, same)
		b.ReportMetric(p50ms(ping), "ping-p50-ms")
		b.ReportMetric(float64(size), "answer-bytes")
		b.ReportMetric(client.Seconds()*1000/float64(len(deep)), "client-cpu-ms")
		b.ReportMetric(server.Seconds()*1000/float64(len(deep)), "server-cpu-ms")
		b.ReportMetric(float64(statusKB(b, d.serverPid, "VmHWM:"))/1024, "server-peak-RSS-MiB")
	})
	if before := os.Getenv("HOSTMCP_BENCH_BEFORE"); before != "" {
		for _, read := range []struct {
			name string
			args map[string]any
		}{{"repeat-vs-before", deepWindow}, {"small-vs-before", sameLines}} {
			args := read.args
			b.Run(read.name, func(b *testing.B) {
				after, old := startTSHostmcp(b, binary, root, unlimited), startTSHostmcp(b, before, root, unlimited)
				after.call(b, "fs_read", args)
				old.call(b, "fs_read", args)
				var afterCPU, oldCPU time.Duration
				loopPairsTimed(b, after.timeServerCall(b, &afterCPU, "fs_read", args), old.timeServerCall(b, &oldCPU, "fs_read", args))
				b.ReportMetric(afterCPU.Seconds()*1000/float64(b.N), "server-cpu-ms")
				b.ReportMetric(oldCPU.Seconds()*1000/float64(b.N), "base-server-cpu-ms")
			})
		}
	}
}

// BenchmarkFsReadVsReferenceTS is BenchmarkFsReadVsReference (issue 20's
// point 2: fs_read of a whole 200-line file no slower than the reference
// filesystem server's read_text_file) through the TypeScript SDK client,
// both servers under their own driver, one call to each per iteration in
// turns: p50-ms is hostmcp's, base-p50-ms the reference's, ratio the
// median of the per-pair ratios (target at most 1).
func BenchmarkFsReadVsReferenceTS(b *testing.B) {
	for _, input := range []string{"text", "go"} {
		b.Run(input, func(b *testing.B) {
			root, name := referenceFile(b, input)
			ours, ref := startTSHostmcp(b, binary, root, unlimited), startTSReference(b, root)
			ourArgs := map[string]any{"path": name}
			refArgs := map[string]any{"path": filepath.Join(root, name)}
			oursSize, refSize := ours.call(b, "fs_read", ourArgs).Bytes, ref.call(b, "read_text_file", refArgs).Bytes
			loopPairsTimed(b, ours.timeCall(b, "fs_read", ourArgs), ref.timeCall(b, "read_text_file", refArgs))
			b.ReportMetric(float64(oursSize), "answer-bytes")
			b.ReportMetric(float64(refSize), "base-answer-bytes")
		})
	}
}

// BenchmarkSearchVsRgTS is BenchmarkSearchVsRg (issue 20's point 3:
// search_content and search_files at most 1.1× rg on the same query)
// through the TypeScript SDK client: the same queries over the same copy
// of GOROOT/src against the same rg command lines run directly, in turns.
// The wall times are the driver's for the call and this process's for rg;
// the CPU figures are BenchmarkSearchVsRg's, the client's (client-ms)
// being node's, the driver and the SDK.
func BenchmarkSearchVsRgTS(b *testing.B) {
	src := goSrc(b)
	d := startTSHostmcp(b, binary, src, "")
	node := d.cmd.Process.Pid
	for _, q := range searchVsRg {
		b.Run(q.name, func(b *testing.B) {
			loopPairsCPUOf(b, d.serverPid, func() time.Duration { return processCPU(b, node) },
				d.timeCall(b, q.tool, q.args), timing(func() { rgDirect(b, src, q.rg...) }))
		})
	}
}
