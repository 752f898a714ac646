package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// connectLoad starts `hostmcp serve` on stdio with root as its only root
// and configTOML, if any, as its configuration.
func connectLoad(b *testing.B, root, configTOML string) *mcp.ClientSession {
	b.Helper()
	cs, _ := connectConfig(b, root, configTOML)
	return cs
}

// connectConfig is connectLoad that also returns the server's command.
func connectConfig(b *testing.B, root, configTOML string) (*mcp.ClientSession, *exec.Cmd) {
	b.Helper()
	cmd := exec.Command(binary, serveArgs(b, root, configTOML)...)
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs, cmd
}

// serveArgs are the arguments of `hostmcp serve` on stdio with a private
// state directory, root as its only root and configTOML, if any, as its
// configuration.
func serveArgs(tb testing.TB, root, configTOML string) []string {
	tb.Helper()
	args := []string{"serve", "--state-dir", tb.TempDir(), "--root", root}
	if configTOML != "" {
		p := filepath.Join(tb.TempDir(), "hostmcp.toml")
		if err := os.WriteFile(p, []byte(configTOML), 0o600); err != nil {
			tb.Fatal(err)
		}
		args = append(args, "--config", p)
	}
	return args
}

// agentTurn is one turn of an agent fanning out as Claude Code does when it
// explores a code base: a dozen reads and searches sent at once, over a
// copy of GOROOT/src.
var agentTurn = []struct {
	tool string
	args map[string]any
}{
	{"fs_read", map[string]any{"path": "net/http/server.go", "max_lines": 400}},
	{"fs_read", map[string]any{"path": "net/http/request.go", "max_lines": 400}},
	{"fs_read", map[string]any{"path": "fmt/print.go"}},
	{"fs_read", map[string]any{"path": "os/file.go"}},
	{"fs_read", map[string]any{"path": "strings/strings.go"}},
	{"fs_read", map[string]any{"path": "bufio/bufio.go"}},
	{"search_content", map[string]any{"root": "net/http", "pattern": `func \(srv \*Server\) \w+`}},
	{"search_content", map[string]any{"pattern": "ErrBodyNotAllowed"}},
	{"search_content", map[string]any{"root": "os", "pattern": "O_CLOEXEC", "max_results": 20}},
	{"search_content", map[string]any{"pattern": `func \(\w+ \*\w+\) Close\(\)`, "context_lines": 0}},
	{"search_files", map[string]any{"pattern": "server.go"}},
	{"search_files", map[string]any{"root": "strings", "pattern": "*_test.go"}},
}

// BenchmarkAgentBurst sends agentTurn again and again with no pause, over
// stdio, and reports how long a turn takes to be answered and so how many
// calls per second one agent loop can send at most (a real one also waits
// for its model between turns), and how many calls were refused.
func BenchmarkAgentBurst(b *testing.B) {
	src := goSrc(b)
	for _, lim := range []struct{ name, config string }{
		{"limits=default", ""},
		{"limits=off", limitsOff},
	} {
		b.Run(lim.name, func(b *testing.B) {
			cs := connectLoad(b, src, lim.config)
			var took []time.Duration
			var refused, failed atomic.Int64
			for b.Loop() {
				start := time.Now()
				var wg sync.WaitGroup
				for _, c := range agentTurn {
					wg.Go(func() {
						res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
						if err != nil {
							b.Error(err)
							return
						}
						switch code := errorCode(res); code {
						case "":
						case "BUSY", "RATE_LIMITED":
							refused.Add(1)
						default:
							failed.Add(1)
							b.Errorf("%s %v: %s", c.tool, c.args, code)
						}
					})
				}
				wg.Wait()
				took = append(took, time.Since(start))
			}
			reportLatency(b, took)
			median := testutil.Percentile(took, 50)
			b.ReportMetric(float64(len(agentTurn))/median.Seconds(), "calls/s")
			b.ReportMetric(float64(refused.Load()), "refused")
		})
	}
}

// errorCode is a result's envelope error code, "" on success.
func errorCode(res *mcp.CallToolResult) string {
	js, _ := json.Marshal(res.StructuredContent)
	var env struct {
		Error *struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.Unmarshal(js, &env)
	if env.Error == nil {
		return ""
	}
	return env.Error.Code
}

// limitsOff lifts every [load] limit as far as the configuration allows:
// the server as it was before issue 24, the baseline of the flood.
const limitsOff = `[load]
max_calls = 4096
queued_calls = 4096
max_program_calls = 1024
queued_program_calls = 4096
calls_per_second = 1000000
burst = 1000000
max_http_requests = 65536
`

var listening = regexp.MustCompile(`serving MCP over HTTP.*addr=(\S+)`)

// startHTTP starts `hostmcp serve --http` on a free loopback port with
// root and configTOML, and returns its /mcp URL and process.
func startHTTP(b *testing.B, root, configTOML, token string) (string, *exec.Cmd) {
	b.Helper()
	return startHTTPBinary(b, binary, root, configTOML, token)
}

// startHTTPBinary is startHTTP with another build of hostmcp.
func startHTTPBinary(b *testing.B, binary, root, configTOML, token string) (string, *exec.Cmd) {
	b.Helper()
	args := []string{"serve", "--http", "127.0.0.1:0", "--state-dir", b.TempDir(), "--root", root}
	if configTOML != "" {
		p := filepath.Join(b.TempDir(), "hostmcp.toml")
		if err := os.WriteFile(p, []byte(configTOML), 0o600); err != nil {
			b.Fatal(err)
		}
		args = append(args, "--config", p)
	}
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "HOSTMCP_TOKEN="+token)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() { // read to the end: a full pipe would stall the server
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	select {
	case a := <-addr:
		return "http://" + a + "/mcp", cmd
	case <-time.After(30 * time.Second):
		b.Fatal("the server did not start listening")
		return "", nil
	}
}

// BenchmarkHTTPFlood is the flood of test/e2e's TestHTTPFlood, measured:
// 500 concurrent search_content calls over a copy of GOROOT/src at the
// built binary over HTTP, with pings every 50 ms meanwhile; the baseline
// is the same flood with every limit lifted. One flood per iteration.
func BenchmarkHTTPFlood(b *testing.B) {
	const token = "bench-token-0123456789abcdef"
	testutil.ExclusiveLoad(b) // it loads both cores
	src := goSrc(b)
	for _, lim := range []struct{ name, config string }{
		{"limits=default", ""},
		{"limits=off", limitsOff},
	} {
		b.Run(lim.name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				url, cmd := startHTTP(b, src, lim.config, token)
				watch := &testutil.ProcWatch{PID: cmd.Process.Pid, Child: "rg"}
				b.StartTimer()
				res := (&testutil.Flood{URL: url, Token: token, Calls: 500, Tool: "search_content",
					Args:      map[string]any{"pattern": "hostmcp flood: no such line", "literal": true, "max_results": 5},
					PingEvery: 50 * time.Millisecond, Watch: watch}).Run()
				b.StopTimer()
				reportFlood(b, res, watch)
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				b.StartTimer()
			}
		})
	}
}

func reportFlood(b *testing.B, res testutil.FloodResult, watch *testutil.ProcWatch) {
	var lat []time.Duration
	kinds := map[string]int{}
	for _, a := range res.Answers {
		lat = append(lat, a.Latency)
		switch {
		case a.Err != "":
			kinds["failed"]++
		case a.Status == 429:
			kinds["http429"]++
		case a.Code == "":
			kinds["ok"]++
		case a.Code == "BUSY":
			kinds["busy"]++
		case a.Code == "RATE_LIMITED":
			kinds["rate-limited"]++
		default:
			kinds["other-error"]++ // TIMEOUT, mostly, without limits
		}
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(float64(len(res.Answers))/res.Wall.Seconds(), "answered/s")
	b.ReportMetric(ms(testutil.Percentile(lat, 50)), "p50-ms")
	b.ReportMetric(ms(testutil.Percentile(lat, 99)), "p99-ms")
	b.ReportMetric(float64(watch.PeakRSS())/(1<<20), "peak-RSS-MiB")
	b.ReportMetric(float64(watch.PeakChildren()), "peak-children")
	b.ReportMetric(ms(testutil.Percentile(res.Pings, 50)), "ping-p50-ms")
	b.ReportMetric(ms(testutil.Percentile(res.Pings, 99)), "ping-p99-ms")
	b.ReportMetric(float64(len(res.PingFailures)), "ping-failures")
	for _, k := range []string{"ok", "busy", "rate-limited", "http429", "other-error", "failed"} {
		b.ReportMetric(float64(kinds[k]), k)
	}
}
