package bench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// referenceServer is the reference filesystem server of the MCP project,
// installed from the lock file in bench/peers by scripts/deps.sh.
const referenceServer = "peers/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"

// connectReference starts the reference filesystem server on stdio with
// root as its only allowed directory, driven by the same go-sdk client as
// hostmcp.
func connectReference(b *testing.B, root string) *mcp.ClientSession {
	b.Helper()
	if _, err := os.Stat(referenceServer); err != nil {
		b.Fatalf("the reference filesystem server is not installed (%v): run scripts/deps.sh", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		b.Fatalf("node: %v (scripts/deps.sh installs it)", err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: exec.Command(node, referenceServer, root)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

// BenchmarkFsReadVsReference is fs_read of a whole 200-line file beside
// the reference filesystem server's read_text_file of the same file,
// through the same go-sdk client over stdio, one call to each per
// iteration so that both see the same machine (target: hostmcp's p50 no
// higher than the reference's). hostmcp's per-client rate limit is lifted:
// this measures a call, not the limit (admission itself costs about 1 µs).
// "text" is a log, "go" the first 200 lines of a Go source file. With
// HOSTMCP_BENCH_BEFORE naming another build of hostmcp (the code before a
// change), it is measured too, in the same loop: before and after figures
// from one run on a shared machine.
func BenchmarkFsReadVsReference(b *testing.B) {
	for _, input := range []string{"text", "go"} {
		b.Run(input, func(b *testing.B) {
			root, name := referenceFile(b, input)
			ours := connectLoad(b, root, unlimited)
			var before *mcp.ClientSession
			if bin := os.Getenv("HOSTMCP_BENCH_BEFORE"); bin != "" {
				before = connectBinary(b, bin, root, unlimited)
			}
			ref := connectReference(b, root)
			ourArgs := map[string]any{"path": name}
			refArgs := map[string]any{"path": filepath.Join(root, name)}
			var mine, old, theirs []time.Duration
			for b.Loop() {
				mine = append(mine, timeCall(b, ours, "fs_read", ourArgs))
				theirs = append(theirs, timeCall(b, ref, "read_text_file", refArgs))
				if before != nil {
					old = append(old, timeCall(b, before, "fs_read", ourArgs))
				}
			}
			m, t := median(mine), median(theirs)
			b.ReportMetric(float64(m.Microseconds())/1000, "hostmcp-p50-ms")
			b.ReportMetric(float64(t.Microseconds())/1000, "reference-p50-ms")
			b.ReportMetric(float64(m)/float64(t), "ratio")
			if before != nil {
				o := median(old)
				b.ReportMetric(float64(o.Microseconds())/1000, "before-p50-ms")
				b.ReportMetric(float64(o)/float64(t), "before-ratio")
			}
		})
	}
}

// unlimited lifts hostmcp's per-client rate limit, for benchmarks that
// call faster than its default 50 a second: they measure a call, not the
// limit (admission itself costs about 1 µs).
const unlimited = "[load]\ncalls_per_second = 1000000\nburst = 1000000\n"

// referenceFile writes the file BenchmarkFsReadVsReference reads whole,
// "text" a 200-line log, "go" the first 200 lines of a Go source file, in
// a new directory; it returns the directory, with no symlink in its path
// (the reference server refuses a path through one), and the file's name.
func referenceFile(b *testing.B, input string) (root, name string) {
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	if input == "go" {
		return root, goHeads(b, root, 200, 1000)[0]
	}
	logFile(b, filepath.Join(root, "app.log"), 200)
	return root, "app.log"
}

// connectBinary starts another build of hostmcp as connectLoad starts this one.
func connectBinary(b *testing.B, bin, root, configTOML string) *mcp.ClientSession {
	b.Helper()
	p := filepath.Join(b.TempDir(), "hostmcp.toml")
	if err := os.WriteFile(p, []byte(configTOML), 0o600); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", "--state-dir", b.TempDir(), "--root", root, "--config", p)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

// timeCall times one successful call.
func timeCall(b *testing.B, cs *mcp.ClientSession, name string, args any) time.Duration {
	start := time.Now()
	callTool(b, cs, name, args)
	return time.Since(start)
}

// median is the middle of d, which it sorts.
func median(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[len(d)/2]
}
