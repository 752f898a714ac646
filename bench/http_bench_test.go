package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// cheapMix is the calls BenchmarkHTTPCheapMix cycles through: each answers
// in a few milliseconds without starting a program.
var cheapMix = []struct {
	tool string
	args map[string]any
}{
	{"fs_read", map[string]any{"path": "app.log"}},
	{"fs_list", map[string]any{}},
	{"fs_read", map[string]any{"path": "app.log", "offset_lines": 100, "max_lines": 20}},
	{"perf_info", map[string]any{}},
}

// BenchmarkHTTPCheapMix is 64 clients at once over streamable HTTP, each
// sending cheapMix's calls one after another (2,000 calls an iteration),
// at the built binary with the rate limit lifted: throughput, p50 and p99
// of a call, and the share of the server's time its call records took,
// from /metrics (hostmcp_audit_write_seconds_total: the writer is one
// goroutine, off every call's path). With HOSTMCP_BENCH_BEFORE naming
// another build (the code before a change), it is measured too, each
// iteration alternating the two.
func BenchmarkHTTPCheapMix(b *testing.B) {
	const token = "bench-token-0123456789abcdef"
	root := b.TempDir()
	logFile(b, filepath.Join(root, "app.log"), 200)
	for i := range 20 {
		logFile(b, filepath.Join(root, fmt.Sprintf("f%02d.log", i)), 10)
	}
	builds := []struct{ name, bin string }{{"after", binary}}
	if bin := os.Getenv("HOSTMCP_BENCH_BEFORE"); bin != "" {
		builds = append(builds, struct{ name, bin string }{"before", bin})
	}
	type server struct {
		url string
		pid int
	}
	servers := make([]server, len(builds))
	for i, bd := range builds {
		url, cmd := startHTTPBinary(b, bd.bin, root, limitsOff, token)
		servers[i] = server{url, cmd.Process.Pid}
	}
	lat := make([][]time.Duration, len(builds))
	wall := make([]time.Duration, len(builds))
	cpu := make([]time.Duration, len(builds))
	var auditSeconds, batches, dropped float64
	for b.Loop() {
		for i, s := range servers {
			secs := scrape(b, s.url, token, "hostmcp_audit_write_seconds_total")
			n := scrape(b, s.url, token, "hostmcp_audit_batches_total")
			c := processCPU(b, s.pid)
			l, w := runMix(b, s.url, token, 64, 2000)
			lat[i], wall[i], cpu[i] = append(lat[i], l...), wall[i]+w, cpu[i]+processCPU(b, s.pid)-c
			if builds[i].name == "after" {
				auditSeconds += scrape(b, s.url, token, "hostmcp_audit_write_seconds_total") - secs
				batches += scrape(b, s.url, token, "hostmcp_audit_batches_total") - n
				dropped = scrape(b, s.url, token, `hostmcp_audit_records_total{fate="dropped"}`)
			}
		}
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	for i, bd := range builds {
		b.ReportMetric(float64(len(lat[i]))/wall[i].Seconds(), bd.name+"-calls/s")
		b.ReportMetric(ms(testutil.Percentile(lat[i], 50)), bd.name+"-p50-ms")
		b.ReportMetric(ms(testutil.Percentile(lat[i], 99)), bd.name+"-p99-ms")
		b.ReportMetric(float64(cpu[i].Microseconds())/float64(len(lat[i])), bd.name+"-cpu-µs/call")
		if bd.name == "after" {
			b.ReportMetric(100*auditSeconds/wall[i].Seconds(), "audit-%wall")
			b.ReportMetric(1e6*auditSeconds/float64(len(lat[i])), "audit-µs/call")
			b.ReportMetric(float64(len(lat[i]))/batches, "records/batch")
			b.ReportMetric(dropped, "records-dropped")
		}
	}
}

// runMix sends calls calls from clients goroutines, each cycling through
// cheapMix, and returns every call's latency and the wall time.
func runMix(b *testing.B, url, token string, clients, calls int) ([]time.Duration, time.Duration) {
	tr := &http.Transport{MaxIdleConnsPerHost: clients, MaxIdleConns: clients}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: time.Minute}
	bodies := make([][]byte, len(cheapMix))
	for i, c := range cheapMix {
		bodies[i] = mustJSON(b, map[string]any{"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
			"params": map[string]any{"name": c.tool, "arguments": c.args}})
	}
	lat := make([]time.Duration, calls)
	var next atomic.Int64
	var failed atomic.Value
	var wg sync.WaitGroup
	start := time.Now()
	for w := range clients {
		wg.Go(func() {
			for k := w; ; k++ {
				n := int(next.Add(1)) - 1
				if n >= calls {
					return
				}
				t0 := time.Now()
				if err := postCall(client, url, token, bodies[k%len(bodies)]); err != nil {
					failed.Store(err)
					return
				}
				lat[n] = time.Since(t0)
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	if err, _ := failed.Load().(error); err != nil {
		b.Fatal(err)
	}
	return lat, took
}

// postCall posts one tools/call and checks that it succeeded.
func postCall(client *http.Client, url, token string, body []byte) error {
	req, err := http.NewRequest("POST", url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if i := bytes.Index(raw, []byte("data: ")); i >= 0 { // an SSE answer
		raw = raw[i+len("data: "):]
	}
	var msg struct {
		Result struct {
			StructuredContent struct {
				Success bool `json:"success"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(raw), &msg); err != nil || !msg.Result.StructuredContent.Success {
		return fmt.Errorf("HTTP %d: %.300s (%v)", resp.StatusCode, raw, err)
	}
	return nil
}

// scrape reads one unlabelled counter from the server's /metrics; 0 when
// the build does not export it.
func scrape(b *testing.B, mcpURL, token, name string) float64 {
	req, err := http.NewRequest("GET", strings.TrimSuffix(mcpURL, "/mcp")+"/metrics", nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				b.Fatal(err)
			}
			return f
		}
	}
	return 0
}

// processCPU is the user and system CPU time pid has used, from
// /proc/pid/stat (in clock ticks of 10 ms: enough over thousands of calls).
func processCPU(b *testing.B, pid int) time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	// The fields after the command name, which is in parentheses.
	f := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+2:]))
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		b.Fatalf("/proc/%d/stat: %v %v", pid, err1, err2)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

func mustJSON(b *testing.B, v any) []byte {
	js, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	return js
}
