// Package bench measures hostmcp the way clients see it: the built binary
// driven over stdio by the go-sdk client. Results are recorded in
// bench/RESULTS.md by scripts/bench.sh; nothing here is a pass/fail timing.
package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var binary string

func TestMain(m *testing.M) {
	flag.Parse()
	if flag.Lookup("test.bench").Value.String() == "" {
		os.Exit(m.Run()) // no benchmark asked for: do not pay for a build
	}
	dir, err := os.MkdirTemp("", "hostmcp-bench-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "hostmcp")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", binary, "github.com/hostmcp/hostmcp/cmd/hostmcp")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		panic(fmt.Sprintf("building hostmcp: %v\n%s", err, out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// connect starts `hostmcp serve` on stdio with a private state directory.
func connect(b *testing.B) (*mcp.ClientSession, *exec.Cmd) {
	b.Helper()
	cmd := exec.Command(binary, "serve", "--state-dir", b.TempDir(), "--root", b.TempDir())
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs, cmd
}

func callTool(b *testing.B, cs *mcp.ClientSession, name string, args any) {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError {
		b.Fatalf("%s: %v %+v", name, err, res)
	}
}

// BenchmarkSysSnapshotStdio is sys_snapshot end to end, sampling window
// included (target: p50 at most 150 ms).
func BenchmarkSysSnapshotStdio(b *testing.B) {
	cs, _ := connect(b)
	loopLatency(b, func() { callTool(b, cs, "sys_snapshot", map[string]any{}) })
}

// BenchmarkPingStdio is the baseline: one round trip with no work, so the
// transport's share of the above is visible.
func BenchmarkPingStdio(b *testing.B) {
	cs, _ := connect(b)
	loopLatency(b, func() {
		if err := cs.Ping(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkPerfInfoStdio is perf_info end to end.
func BenchmarkPerfInfoStdio(b *testing.B) {
	cs, _ := connect(b)
	loopLatency(b, func() { callTool(b, cs, "perf_info", map[string]any{}) })
}

// BenchmarkStartToInitialize is the time from exec to the initialize answer.
func BenchmarkStartToInitialize(b *testing.B) {
	state, root := b.TempDir(), b.TempDir()
	for b.Loop() {
		cmd := exec.Command(binary, "serve", "--state-dir", state, "--root", root)
		client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cs.Close()
		b.StartTimer()
	}
}

// BenchmarkExecTrue is the baseline for the above: starting a trivial
// process and waiting for it.
func BenchmarkExecTrue(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("/bin/true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIdleRSS reports the server's resident memory after initialize, a
// tools/list and a second of idleness, and the binary's size.
func BenchmarkIdleRSS(b *testing.B) {
	for b.Loop() {
		cs, cmd := connect(b)
		if _, err := cs.ListTools(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
		time.Sleep(time.Second)
		b.ReportMetric(float64(rssKB(b, cmd.Process.Pid))/1024, "idle-RSS-MiB")
		cs.Close()
	}
	st, err := os.Stat(binary)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(st.Size())/(1<<20), "binary-MiB")
}

func rssKB(b *testing.B, pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	b.Fatal("no VmRSS")
	return 0
}

// BenchmarkToolsList measures what the tool list costs a client with every
// default toolset served: the whole tools/list result as compact JSON, per
// tool, and the part a model is shown (name, description, input schema;
// clients keep output schemas to check results). DESIGN.md's yardstick is
// a peer's 61 KB for 26 tools.
func BenchmarkToolsList(b *testing.B) {
	cs, _ := connect(b)
	var res *mcp.ListToolsResult
	loopLatency(b, func() {
		var err error
		if res, err = cs.ListTools(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
	})
	var all, shown, output int
	for _, t := range res.Tools {
		whole, _ := json.Marshal(t)
		in, _ := json.Marshal(t.InputSchema)
		out, _ := json.Marshal(t.OutputSchema)
		all += len(whole)
		shown += len(t.Name) + len(t.Description) + len(in)
		output += len(out)
	}
	b.ReportMetric(float64(len(res.Tools)), "tools")
	b.ReportMetric(float64(all)/1024, "list-KiB")
	b.ReportMetric(float64(all)/float64(len(res.Tools))/1024, "KiB/tool")
	b.ReportMetric(float64(shown)/1024, "model-KiB")
	b.ReportMetric(float64(output)/1024, "output-schema-KiB")
}

// BenchmarkToolsListRaw is tools/list as the server answers it, over a bare
// JSON-RPC pipe: BenchmarkToolsList less the go-sdk client's decoding of
// every schema.
func BenchmarkToolsListRaw(b *testing.B) {
	cmd := exec.Command(binary, "serve", "--state-dir", b.TempDir(), "--root", b.TempDir())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	answers := bufio.NewReaderSize(stdout, 1<<20)
	send := func(msg string) {
		if _, err := io.WriteString(stdin, msg+"\n"); err != nil {
			b.Fatal(err)
		}
	}
	answer := func() {
		if _, err := answers.ReadBytes('\n'); err != nil {
			b.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	answer()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	loopLatency(b, func() {
		send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		answer()
	})
}
