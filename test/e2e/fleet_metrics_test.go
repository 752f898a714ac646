package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// A real Prometheus scrapes two hostmcp instances, each with its own state
// directory and token, as a fleet job; PromQL over them returns every
// instance's USE verdicts, and their PSI figures agree with what the test
// reads from /proc/pressure around the scrapes.
func TestPrometheusScrapesHealthOfTwoInstances(t *testing.T) {
	t.Parallel() // most of it is waiting for Prometheus to start and scrape
	promBin := testutil.RequireBinary(t, "prometheus")
	testutil.RequireFile(t, "/proc/pressure/cpu")
	cpuBefore := psiSomeTotal(t)

	dir := t.TempDir()
	var targets []string
	var jobs strings.Builder
	for i, token := range []string{"fleet-token-a-0123456789abcdef", "fleet-token-b-0123456789abcdef"} {
		s := newEnv(t, "").startHTTP(t, token, "127.0.0.1:0")
		host := strings.TrimPrefix(s.base, "http://")
		targets = append(targets, host)
		tokenFile := filepath.Join(dir, fmt.Sprintf("token-%d", i))
		if err := os.WriteFile(tokenFile, []byte(token+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		// One scrape config per token; the relabelling puts both in one
		// job, as a fleet is queried.
		fmt.Fprintf(&jobs, `  - job_name: hostmcp-%d
    authorization:
      credentials_file: %s
    static_configs:
      - targets: [%q]
    relabel_configs:
      - target_label: job
        replacement: hostmcp
`, i, tokenFile, host)
	}
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, []byte("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n"+jobs.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	prom := startPrometheus(t, promBin, cfg, filepath.Join(dir, "data"))

	waitTargetsUp(t, prom, targets)

	// Every instance exports the 15 statuses (5 resources x 3 dimensions),
	// each 0, 1 or 2, and says its health was measured.
	counts := promQuery(t, prom, `count by (instance) (hostmcp_health_status{job="hostmcp"})`)
	worst := promQuery(t, prom, `max by (instance) (hostmcp_health_status{job="hostmcp"})`)
	up := promQuery(t, prom, `hostmcp_health_up{job="hostmcp"}`)
	for _, target := range targets {
		if counts[target] != 15 {
			t.Errorf("%s: %v status series, want 15 (all: %v)", target, counts[target], counts)
		}
		if w, ok := worst[target]; !ok || w < 0 || w > 2 {
			t.Errorf("%s: worst status %v (present %v), want 0, 1 or 2", target, w, ok)
		}
		if up[target] != 1 {
			t.Errorf("%s: hostmcp_health_up %v", target, up[target])
		}
	}

	// PSI: each instance's counter lies between the test's readings before
	// Prometheus started and after the query; the stall its window saw
	// (share x length, from one scrape) is at most what the test's wider
	// window saw, give or take the share's rounding to 0.01%.
	totals := promQuery(t, prom, `hostmcp_psi_stall_seconds_total{job="hostmcp",resource="cpu",kind="some"}`)
	stalled := promQuery(t, prom, `hostmcp_psi_stall_ratio{job="hostmcp",resource="cpu",kind="some"} * on (instance) hostmcp_health_window_seconds{job="hostmcp"}`)
	ratios := promQuery(t, prom, `hostmcp_psi_stall_ratio{job="hostmcp",resource="cpu",kind="some"}`)
	cpuAfter := psiSomeTotal(t)
	seen := (cpuAfter - cpuBefore).Seconds()
	for _, target := range targets {
		v, ok := totals[target]
		if !ok || v < cpuBefore.Seconds() || v > cpuAfter.Seconds() {
			t.Errorf("%s: cpu some stall total %v s (present %v), want between %v and %v", target, v, ok, cpuBefore.Seconds(), cpuAfter.Seconds())
		}
		if s, ok := stalled[target]; !ok || s < 0 || s > seen+0.01 {
			t.Errorf("%s: %v s stalled in the window (present %v); the test saw %v s around it", target, s, ok, seen)
		}
		if r, ok := ratios[target]; !ok || r < 0 || r > 1 {
			t.Errorf("%s: cpu some stall ratio %v (present %v), want 0 to 1", target, r, ok)
		}
	}
}

// psiSomeTotal is /proc/pressure/cpu's some total=, the stall since boot.
func psiSomeTotal(t *testing.T) time.Duration {
	t.Helper()
	f, err := os.Open("/proc/pressure/cpu")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || fields[0] != "some" {
			continue
		}
		for _, kv := range fields[1:] {
			if v, ok := strings.CutPrefix(kv, "total="); ok {
				us, err := strconv.ParseInt(v, 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				return time.Duration(us) * time.Microsecond
			}
		}
	}
	t.Fatal("no some total= in /proc/pressure/cpu")
	return 0
}

// startPrometheus runs prometheus on a free loopback port with its own
// storage (testutil.StartPrometheus, which the fleet toolset's tests share).
func startPrometheus(t *testing.T, bin, cfg, data string) string {
	t.Helper()
	return testutil.StartPrometheus(t, bin, cfg, data)
}

// waitTargetsUp waits until Prometheus has scraped every target
// successfully at least twice, so queries find their series.
func waitTargetsUp(t *testing.T, prom string, targets []string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var body struct {
			Data struct {
				ActiveTargets []struct {
					Labels    map[string]string `json:"labels"`
					Health    string            `json:"health"`
					LastError string            `json:"lastError"`
				} `json:"activeTargets"`
			} `json:"data"`
		}
		getJSON(t, prom+"/api/v1/targets", &body)
		up := map[string]bool{}
		var states []string
		for _, a := range body.Data.ActiveTargets {
			up[a.Labels["instance"]] = a.Health == "up"
			states = append(states, fmt.Sprintf("%s %s %s", a.Labels["instance"], a.Health, a.LastError))
		}
		all := true
		for _, tg := range targets {
			all = all && up[tg]
		}
		if all && len(promQuery(t, prom, `count by (instance) (count_over_time(hostmcp_health_up[1m]) >= 2)`)) == len(targets) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("targets not up after 60 s: %v", states)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// promQuery runs an instant PromQL query and returns each series' value by
// its instance label.
func promQuery(t *testing.T, prom, q string) map[string]float64 {
	t.Helper()
	var body struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			ResultType string `json:"resultType"`
			Result     []struct {
				Metric map[string]string `json:"metric"`
				Value  [2]any            `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	getJSON(t, prom+"/api/v1/query?query="+url.QueryEscape(q), &body)
	if body.Status != "success" || body.Data.ResultType != "vector" {
		t.Fatalf("query %s: status %s, type %s: %s", q, body.Status, body.Data.ResultType, body.Error)
	}
	out := map[string]float64{}
	for _, r := range body.Data.Result {
		s, _ := r.Value[1].(string)
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("query %s: value %v: %v", q, r.Value, err)
		}
		out[r.Metric["instance"]] = v
	}
	return out
}

func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
}
