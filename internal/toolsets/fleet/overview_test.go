package fleet_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// overviewAnswer is fleet_overview's answer as a client decodes it.
type overviewAnswer struct {
	Hosts []struct {
		Host         string `json:"host"`
		Instance     string `json:"instance"`
		Status       string `json:"status"`
		TopSuspicion string `json:"top_suspicion"`
		Since        string `json:"since"`
		Reason       string `json:"reason"`
	} `json:"hosts"`
	Counts      map[string]int `json:"counts"`
	More        int            `json:"more"`
	Unmonitored []string       `json:"unmonitored"`
}

// hostTree writes the /proc files the sampler reads for a host with
// memAvailablePercent of its memory available (5: critical; 80: healthy),
// idle otherwise; the files do not change, so neither does the verdict.
func hostTree(t *testing.T, memAvailablePercent int) (proc, sys string) {
	t.Helper()
	proc, sys = t.TempDir(), t.TempDir()
	files := map[string]string{
		"stat":    "cpu  100 0 0 900 0 0 0 0 0 0\ncpu0 100 0 0 900 0 0 0 0 0 0\nprocs_running 1\nprocs_blocked 0\n",
		"meminfo": fmt.Sprintf("MemTotal: 1000000 kB\nMemFree: %d kB\nMemAvailable: %d kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n", memAvailablePercent*8000, memAvailablePercent*10000),
		"loadavg": "0.10 0.10 0.10 1/100 1\n",
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(proc, name), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return proc, sys
}

// A real Prometheus scrapes three targets of the job, a host short of
// memory, a healthy one and one that is down: fleet_overview ranks them
// critical, unreachable, ok, each named by the host it runs on, and
// fleet_call's top_k asks the worst.
func TestFleetOverviewRanksTheJob(t *testing.T) {
	promBin := testutil.RequireBinary(t, "prometheus")
	hostname, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	started := time.Now().Add(-time.Second).Truncate(time.Second)
	proc, sys := hostTree(t, 5)
	sick := startHost(t, hostOpts{Proc: proc, Sys: sys})
	proc, sys = hostTree(t, 80)
	fine := startHost(t, hostOpts{Proc: proc, Sys: sys})
	down := closedAddr(t)
	static := startHost(t, hostOpts{}) // listed in [fleet] hosts, not scraped

	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte(token), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfg, fmt.Appendf(nil, `global: {scrape_interval: 1s, scrape_timeout: 1s}
scrape_configs:
  - job_name: hostmcp
    authorization: {credentials_file: %s}
    static_configs: [{targets: [%q, %q, %q]}]
`, tokenFile, sick.Addr, fine.Addr, down), 0o600); err != nil {
		t.Fatal(err)
	}
	prom := testutil.StartPrometheus(t, promBin, cfg, filepath.Join(dir, "data"))
	f := fleetHost(t, func(f *config.FleetConf) {
		f.PrometheusURL = prom
		f.Hosts = []string{static.Base}
	})

	// Until Prometheus has scraped each target, the rows say unreachable.
	var got overviewAnswer
	deadline := time.Now().Add(60 * time.Second)
	for {
		got = data[overviewAnswer](t, call(t, f, "fleet_overview", map[string]any{}))
		var statuses []string
		for _, h := range got.Hosts {
			statuses = append(statuses, h.Status)
		}
		if slices.Equal(statuses, []string{"critical", "unreachable", "ok"}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 60 s the statuses are %v, want critical, unreachable, ok: %+v", statuses, got)
		}
		time.Sleep(500 * time.Millisecond)
	}
	now := time.Now()
	rows := got.Hosts
	if rows[0].Instance != sick.Addr || rows[0].Host != hostname || rows[0].TopSuspicion != "memory utilization 5" {
		t.Errorf("first row %+v, want %s (%s) with memory utilization 5", rows[0], sick.Addr, hostname)
	}
	if rows[1].Instance != down || rows[1].Host != "" || !strings.Contains(rows[1].Reason, "scrape failing") || !strings.Contains(rows[1].Reason, "connection refused") {
		t.Errorf("second row %+v, want %s unreachable with Prometheus's scrape error", rows[1], down)
	}
	if rows[2].Instance != fine.Addr || rows[2].Host != hostname || rows[2].TopSuspicion != "" {
		t.Errorf("third row %+v, want %s ok without a suspicion", rows[2], fine.Addr)
	}
	for r := range rows {
		since, err := time.Parse(time.RFC3339, rows[r].Since)
		if err != nil || since.Before(started) || since.After(now) {
			t.Errorf("%s since %q (%v): want a time between the test's start %s and now", rows[r].Instance, rows[r].Since, err, started)
		}
	}
	if want := map[string]int{"critical": 1, "warning": 0, "unreachable": 1, "ok": 1}; fmt.Sprint(got.Counts) != fmt.Sprint(want) {
		t.Errorf("counts %v, want %v", got.Counts, want)
	}
	if !slices.Equal(got.Unmonitored, []string{static.Base}) {
		t.Errorf("unmonitored %v, want the static host %s", got.Unmonitored, static.Base)
	}
	limited := data[overviewAnswer](t, call(t, f, "fleet_overview", map[string]any{"limit": 1}))
	if len(limited.Hosts) != 1 || limited.More != 2 || limited.Hosts[0].Instance != sick.Addr {
		t.Errorf("limit 1: %+v, want the worst host and 2 more", limited)
	}

	// top_k asks the worst hosts of the same ranking; a host can be named
	// by its hostname, which both live targets share here.
	top := data[callAnswer](t, call(t, f, "fleet_call", map[string]any{"tool": "perf_info", "top_k": 2}))
	if len(top.Hosts) != 2 || top.Hosts[0].Instance != sick.Addr || !top.Hosts[0].OK || top.Hosts[1].Instance != down || top.Hosts[1].ErrorCode != "HOST_UNREACHABLE" {
		t.Errorf("top_k 2: %+v, want %s answered and %s unreachable", top.Hosts, sick.Addr, down)
	}
	byName := data[callAnswer](t, call(t, f, "fleet_call", map[string]any{"tool": "perf_info", "hosts": []string{hostname, static.Base}}))
	var asked []string
	for _, h := range byName.Hosts {
		asked = append(asked, h.Instance)
	}
	// A name that matches several hosts asks them in the order of their
	// instances, whatever order Prometheus lists its targets in.
	live := []string{sick.Addr, fine.Addr}
	slices.Sort(live)
	if !slices.Equal(asked, append(live, static.Addr)) || byName.OK != 3 {
		t.Errorf("hosts [%s, %s] asked %v (%d ok), want both live targets and the static host", hostname, static.Base, asked, byName.OK)
	}
}

// Without prometheus_url, fleet_overview says what it needs; with a
// Prometheus that does not answer, it says so, and fleet_call still
// reaches the hosts it names.
func TestFleetOverviewNeedsPrometheus(t *testing.T) {
	h := startHost(t, hostOpts{})
	f := fleetHost(t, func(f *config.FleetConf) { f.Hosts = []string{h.Base} })
	res := call(t, f, "fleet_overview", map[string]any{})
	if res.Err == nil || res.Err.Code != "FEATURE_DISABLED" || !strings.Contains(res.Err.Message, "prometheus_url") {
		t.Errorf("%+v, want FEATURE_DISABLED naming prometheus_url", res.Err)
	}
	gone := "http://" + closedAddr(t)
	f = fleetHost(t, func(f *config.FleetConf) { f.Hosts, f.PrometheusURL = []string{h.Base}, gone })
	res = call(t, f, "fleet_overview", map[string]any{})
	if res.Err == nil || res.Err.Code != "HOST_UNREACHABLE" || !strings.Contains(res.Err.Message, "Prometheus at "+gone+" did not answer") {
		t.Errorf("%+v, want HOST_UNREACHABLE naming Prometheus", res.Err)
	}
	res = call(t, f, "fleet_call", map[string]any{"tool": "perf_info", "hosts": []string{h.Addr}})
	if got := data[callAnswer](t, res); got.OK != 1 || len(res.Envelope.Warnings) != 1 || !strings.Contains(res.Envelope.Warnings[0], "only [fleet] hosts") {
		t.Errorf("%+v, warnings %q: want the static host asked, and a warning that Prometheus's were not", got, res.Envelope.Warnings)
	}
}

// A Prometheus (or whatever answers at prometheus_url) that sends more
// than any answer about a fleet holds is cut off at the same bound as a
// host's answer, not read into the server's memory to its end.
func TestFleetOverviewBoundsPrometheusAnswer(t *testing.T) {
	huge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"status":"success","data":{"activeTargets":[`)
		spaces := bytes.Repeat([]byte(" "), 1<<20)
		for range 40 { // 40 MiB, over the 32 MiB bound
			if _, err := w.Write(spaces); err != nil {
				return
			}
		}
		io.WriteString(w, `],"droppedTargets":[]}}`)
	}))
	t.Cleanup(huge.Close)
	f := fleetHost(t, func(f *config.FleetConf) { f.PrometheusURL = huge.URL })
	res := call(t, f, "fleet_overview", map[string]any{})
	if res.Err == nil || !strings.Contains(res.Err.Message, "over 32 MiB") {
		t.Errorf("%+v, want an error saying Prometheus's answer is over 32 MiB", res.Err)
	}
}
