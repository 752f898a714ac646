package fleet_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
)

// A Prometheus that redirects is not followed, as a host is not: where it
// points is not the operator's prometheus_url.
func TestFleetOverviewFollowsNoPrometheusRedirect(t *testing.T) {
	var reached atomic.Bool
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Store(true)
		http.Error(w, "not here", http.StatusNotFound)
	}))
	t.Cleanup(elsewhere.Close)
	moved := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+r.URL.Path, http.StatusFound)
	}))
	t.Cleanup(moved.Close)
	f := fleetHost(t, func(f *config.FleetConf) { f.PrometheusURL = moved.URL })
	res := call(t, f, "fleet_overview", map[string]any{})
	if res.Err == nil || res.Err.Code != "HOST_UNREACHABLE" || !strings.Contains(res.Err.Message, "redirects are not followed") {
		t.Errorf("%+v, want HOST_UNREACHABLE saying the redirect is not followed", res.Err)
	}
	if reached.Load() {
		t.Error("the redirect was followed")
	}
}

// A query Prometheus refuses (bad_data, with HTTP 400) is a bug of
// fleet's, not a Prometheus that could not be asked: INTERNAL, with
// Prometheus's word on it.
func TestFleetOverviewReportsARefusedQuery(t *testing.T) {
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/api/v1/targets" {
			io.WriteString(w, `{"status":"success","data":{"activeTargets":[],"droppedTargets":[]}}`)
			return
		}
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"status":"error","errorType":"bad_data","error":"1:1: parse error: no expression found"}`)
	}))
	t.Cleanup(refusing.Close)
	f := fleetHost(t, func(f *config.FleetConf) { f.PrometheusURL = refusing.URL })
	res := call(t, f, "fleet_overview", map[string]any{})
	if res.Err == nil || res.Err.Code != "INTERNAL" || !strings.Contains(res.Err.Message, "refused a query: bad_data: 1:1: parse error") {
		t.Errorf("%+v, want INTERNAL quoting Prometheus's bad_data", res.Err)
	}
}

// A Prometheus behind a proxy that refuses POST is asked again with GET,
// the query in the URL, under prometheus_url's own path.
func TestFleetOverviewFallsBackToGet(t *testing.T) {
	var gets atomic.Int32
	getOnly := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			http.Error(w, "GET only", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/prom/api/v1/targets":
			io.WriteString(w, `{"status":"success","data":{"activeTargets":[{"labels":{"job":"hostmcp","instance":"h1:9000"},"scrapeUrl":"http://h1:9000/metrics","health":"down","lastError":"connection refused"}]}}`)
		case "/prom/api/v1/query", "/prom/api/v1/query_range":
			if r.URL.Query().Get("query") == "" {
				http.Error(w, "no query", http.StatusBadRequest)
				return
			}
			gets.Add(1)
			kind := map[string]string{"/prom/api/v1/query": "vector", "/prom/api/v1/query_range": "matrix"}[r.URL.Path]
			io.WriteString(w, `{"status":"success","data":{"resultType":"`+kind+`","result":[]}}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(getOnly.Close)
	f := fleetHost(t, func(f *config.FleetConf) { f.PrometheusURL, f.Job = getOnly.URL+"/prom", "hostmcp" })
	res := call(t, f, "fleet_overview", map[string]any{})
	got := data[overviewAnswer](t, res)
	if len(got.Hosts) != 1 || got.Hosts[0].Instance != "h1:9000" || got.Hosts[0].Status != "unreachable" ||
		!strings.Contains(got.Hosts[0].Reason, "connection refused") {
		t.Errorf("%+v, want h1:9000 unreachable: connection refused", got.Hosts)
	}
	if gets.Load() == 0 {
		t.Error("no query was asked with GET")
	}
}
