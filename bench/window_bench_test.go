package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/toolsets/files"
)

// requestLog writes n lines of about 115 bytes, an access log's: 200,000
// of them make the 23 MB file of issue 20.
func requestLog(b *testing.B, path string, n int) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i := range n {
		fmt.Fprintf(w, "2026-11-22T%02d:%02d:%02d.%06dZ INFO GET /api/v1/items/%08d status=200 bytes=%06d served in %03dms by web-%02d.eu-1\n",
			i/3600%24, i/60%60, i%60, i%1_000_000, i, i*7919%1_000_000, i%997, i%16)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}

// indexable waits until a file just written is old enough for fs_read to keep
// its line index (a file changed within the last two seconds may change
// again within the same timestamp, so its index is not cached).
func indexable() { time.Sleep(2500 * time.Millisecond) }

// windowFiles writes the 23 MB log of issue 20 into root as big.log, and
// the very lines of the window read from it (50,000 to 50,099) as
// window.log: reading the latter whole gives the same answer with no
// depth, the floor for the former.
func windowFiles(b *testing.B, root string) {
	big := filepath.Join(root, "big.log")
	requestLog(b, big, 200_000)
	data, err := os.ReadFile(big)
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if err := os.WriteFile(filepath.Join(root, "window.log"), []byte(strings.Join(lines[50_000:50_100], "")), 0o644); err != nil {
		b.Fatal(err)
	}
	indexable()
}

var (
	deepWindow = map[string]any{"path": "big.log", "offset_lines": 50_000, "max_lines": 100}
	sameLines  = map[string]any{"path": "window.log"}
)

// BenchmarkFsReadWindowDeep is issue 20's point 4: lines 50,000 to 50,099
// of a 200,000-line, 23 MB file through the stdio client.
//
//   - first: the first such read of a server (each sample a new server),
//     which reads the whole file to find the lines and count them all.
//   - repeat: the same read again on one server, against reading the
//     same 100 lines as a file of their own (window.log) in the same
//     iterations; server-peak-RSS-MiB is the server's VmHWM after them.
func BenchmarkFsReadWindowDeep(b *testing.B) {
	root := b.TempDir()
	windowFiles(b, root)
	b.Run("first", func(b *testing.B) {
		var d []time.Duration
		for b.Loop() {
			b.StopTimer()
			cs, _ := connectRoot(b, root)
			b.StartTimer()
			d = append(d, timed(func() { callTool(b, cs, "fs_read", deepWindow) }))
			b.StopTimer()
			cs.Close()
			b.StartTimer()
		}
		reportLatency(b, d)
	})
	b.Run("repeat", func(b *testing.B) {
		// Two calls an iteration, as fast as they go: over the default
		// rate limit of 50 a second once the burst is spent.
		cs, cmd := connectConfig(b, root, "[load]\ncalls_per_second = 1000000\nburst = 1000000\n")
		callTool(b, cs, "fs_read", deepWindow)
		loopPairs(b, func() { callTool(b, cs, "fs_read", deepWindow) }, func() { callTool(b, cs, "fs_read", sameLines) })
		b.ReportMetric(float64(statusKB(b, cmd.Process.Pid, "VmHWM:"))/1024, "server-peak-RSS-MiB")
	})
	// With HOSTMCP_BENCH_BEFORE naming another build (the code before a
	// change), the same repeated read against that build's, interleaved:
	// ratio is after / before, from one run on a shared machine.
	if before := os.Getenv("HOSTMCP_BENCH_BEFORE"); before != "" {
		b.Run("repeat-vs-before", func(b *testing.B) {
			const unlimited = "[load]\ncalls_per_second = 1000000\nburst = 1000000\n"
			after, _ := connectConfig(b, root, unlimited)
			old := connectBinary(b, before, root, unlimited)
			callTool(b, after, "fs_read", deepWindow)
			callTool(b, old, "fs_read", deepWindow)
			loopPairs(b, func() { callTool(b, after, "fs_read", deepWindow) }, func() { callTool(b, old, "fs_read", deepWindow) })
		})
	}
}

// BenchmarkFsReadWindowDeepInServer is the same repeated read as the tool
// runs it inside the server, envelope marshalled, without the stdio
// transport, the client and the audit record, which every call pays
// alike (issue 20's point 2): fs_read of the deep window against the same
// 100 lines as a file of their own, interleaved.
func BenchmarkFsReadWindowDeepInServer(b *testing.B) {
	root := b.TempDir()
	windowFiles(b, root)
	roots, err := fsroot.Open([]fsroot.Spec{{Path: root}})
	if err != nil {
		b.Fatal(err)
	}
	defer roots.Close()
	var read *tool.Def
	for _, d := range files.New(&files.Deps{Roots: roots}).Toolset().Tools {
		if d.Spec.Name == "fs_read" {
			read = d
		}
	}
	run := func(args map[string]any) func() {
		raw, _ := json.Marshal(args)
		return func() {
			if res := (&tool.Runner{}).Run(context.Background(), tool.Invocation{Def: read, Args: raw}); res.Err != nil {
				b.Fatalf("%s: %s", raw, res.JSON)
			}
		}
	}
	run(deepWindow)() // builds the index
	loopPairs(b, run(deepWindow), run(sameLines))
}
