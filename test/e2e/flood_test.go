package e2e

import (
	"net/http"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// Bounds of the flood, stated here and in bench/RESULTS.md. The answer
// bound is generous for a loaded 2-core machine: a queued call waits at
// most [load] queue_wait (5 s), then runs within searchTimeout; the rest
// is scheduling noise.
const (
	floodCalls       = 500
	floodAnswerBound = 90 * time.Second
	floodRSSBound    = 128 << 20
	floodPingBound   = 100 * time.Millisecond
)

// TestHTTPFlood releases 500 concurrent search_content calls over a source
// tree (GOROOT/src, about 11,000 files) at the built binary over HTTP, once
// with the default [load] limits and once with the rate limit and the HTTP
// budget out of the way so that the work bounds alone hold the line, while
// sys_snapshot calls made meanwhile must all succeed. Every call must be answered
// within the bound by a result, BUSY, RATE_LIMITED or an HTTP 429, each
// refusal with a time to retry after; no more ripgrep children may run at
// once than [load] max_program_calls; the server's peak RSS stays under the
// bound; and pings sent meanwhile are answered with a pong, at a median
// within 100 ms.
func TestHTTPFlood(t *testing.T) {
	testutil.ExclusiveLoad(t) // it loads both cores
	testutil.RequireBinary(t, "rg")
	src := goSrc(t)
	// The searches that are let in must not time out on a machine other
	// test runs load as well: 8 rg walking the tree at once on 2 CPUs can
	// take longer than search_content's default 15 s.
	const searchTimeout = "[tools.search_content]\ntimeout = \"60s\"\n"
	for _, tc := range []struct {
		name, config string
		maxPrograms  int
		probe        string // a cheap call made meanwhile, which must succeed
	}{
		{"default limits", searchTimeout, 8, ""},
		{"work bounds alone", searchTimeout + "[load]\ncalls_per_second = 100000\nburst = 100000\nmax_http_requests = 4096\n", 8, "sys_snapshot"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.config)
			e.root = src + ":ro"
			s := e.startHTTP(t, testToken, "127.0.0.1:0")
			watch := &testutil.ProcWatch{PID: s.cmd.Process.Pid, Child: "rg"}
			res := (&testutil.Flood{
				URL: s.base + "/mcp", Token: testToken, Calls: floodCalls,
				Tool:      "search_content",
				Args:      map[string]any{"pattern": "hostmcp flood: no such line", "literal": true, "max_results": 5},
				PingEvery: 50 * time.Millisecond,
				ProbeTool: tc.probe,
				ProbeArgs: map[string]any{},
				Watch:     watch,
			}).Run()
			outcomes := checkFlood(t, res, watch, tc.maxPrograms)
			checkProbes(t, tc.probe, res.Probes)
			checkRefusalMetrics(t, s.base, outcomes)
		})
	}
}

func checkFlood(t *testing.T, res testutil.FloodResult, watch *testutil.ProcWatch, maxPrograms int) map[string]int {
	t.Helper()
	outcomes := map[string]int{}
	var lat []time.Duration
	for i, a := range res.Answers {
		lat = append(lat, a.Latency)
		kind := a.Code
		switch {
		case a.Err != "":
			t.Errorf("call %d: %s", i, a.Err)
			continue
		case a.Status == http.StatusTooManyRequests:
			kind = "HTTP 429"
		case a.Status != http.StatusOK:
			t.Errorf("call %d: HTTP %d", i, a.Status)
			continue
		case a.Code == "":
			kind = "success"
		case a.Code != "BUSY" && a.Code != "RATE_LIMITED":
			t.Errorf("call %d: error %s, want success, BUSY or RATE_LIMITED", i, a.Code)
		}
		outcomes[kind]++
		if kind != "success" && a.RetryAfter <= 0 {
			t.Errorf("call %d: %s without a time to retry after", i, kind)
		}
		if a.Latency > floodAnswerBound {
			t.Errorf("call %d (%s): answered after %s, over the bound of %s", i, kind, a.Latency, floodAnswerBound)
		}
	}
	peakRSS := watch.PeakRSS()
	t.Logf("%d calls answered in %s (%.0f/s): %v; p50 %s, p99 %s, max %s; peak rg children %d (%d samples); peak RSS %.1f MiB",
		len(res.Answers), res.Wall.Round(time.Millisecond), float64(len(res.Answers))/res.Wall.Seconds(), outcomes,
		testutil.Percentile(lat, 50).Round(time.Millisecond), testutil.Percentile(lat, 99).Round(time.Millisecond),
		testutil.Percentile(lat, 100).Round(time.Millisecond), watch.PeakChildren(), watch.Samples(), float64(peakRSS)/(1<<20))
	t.Logf("%d pings: p50 %s, p99 %s, max %s", len(res.Pings),
		testutil.Percentile(res.Pings, 50), testutil.Percentile(res.Pings, 99), testutil.Percentile(res.Pings, 100))
	if outcomes["success"] == 0 {
		t.Error("no call succeeded: the flood was refused whole")
	}
	if p := watch.PeakChildren(); p > maxPrograms {
		t.Errorf("%d rg children ran at once, over the limit of %d", p, maxPrograms)
	}
	if peakRSS > floodRSSBound {
		t.Errorf("peak RSS %.1f MiB, over the bound of %d MiB", float64(peakRSS)/(1<<20), floodRSSBound>>20)
	}
	if len(res.Pings) == 0 {
		t.Error("no ping was sent during the flood")
	}
	for _, f := range res.PingFailures {
		t.Errorf("ping during the flood: %s", f)
	}
	if p50 := testutil.Percentile(res.Pings, 50); p50 > floodPingBound {
		t.Errorf("median ping during the flood took %s, over %s", p50, floodPingBound)
	}
	return outcomes
}

// checkProbes requires every cheap call made during the flood to have
// succeeded: searches, running or queued, hold no slot a cheap call needs.
func checkProbes(t *testing.T, tool string, probes []testutil.Answer) {
	t.Helper()
	if tool == "" {
		return
	}
	if len(probes) == 0 {
		t.Errorf("no %s was called during the flood", tool)
	}
	var lat []time.Duration
	for i, a := range probes {
		lat = append(lat, a.Latency)
		if a.Err != "" || a.Status != http.StatusOK || a.Code != "" {
			t.Errorf("%s %d during the flood: HTTP %d, code %q, %s", tool, i, a.Status, a.Code, a.Err)
		}
	}
	t.Logf("%d %s calls during the flood, all answered: p50 %s, max %s", len(probes), tool,
		testutil.Percentile(lat, 50).Round(time.Millisecond), testutil.Percentile(lat, 100).Round(time.Millisecond))
}

// checkRefusalMetrics compares /metrics's refusal counters with the
// refusals the flood was answered: every one is counted, by reason.
func checkRefusalMetrics(t *testing.T, base string, outcomes map[string]int) {
	t.Helper()
	code, body := get(t, base+"/metrics", testToken)
	if code != http.StatusOK {
		t.Fatalf("/metrics: HTTP %d", code)
	}
	counted := map[string]float64{}
	for _, line := range strings.Split(body, "\n") {
		rest, ok := strings.CutPrefix(line, "hostmcp_load_refused_total{")
		if !ok {
			continue
		}
		labels, value, _ := strings.Cut(rest, "} ")
		reason := labels[strings.Index(labels, `reason="`)+len(`reason="`):]
		reason = reason[:strings.IndexByte(reason, '"')]
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			t.Fatalf("metric line %q: %v", line, err)
		}
		counted[reason] += v
	}
	for reason, answered := range map[string]int{"BUSY": outcomes["BUSY"], "RATE_LIMITED": outcomes["RATE_LIMITED"], "HTTP_429": outcomes["HTTP 429"]} {
		if counted[reason] != float64(answered) {
			t.Errorf("hostmcp_load_refused_total{reason=%q} = %v, but %d calls were answered so", reason, counted[reason], answered)
		}
	}
}

// goSrc is GOROOT/src, a large source tree every machine that builds
// hostmcp has; the flood only reads it.
func goSrc(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src")
}
