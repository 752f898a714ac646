package fleet_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
)

// A host that redirects the fleet elsewhere does not get the token carried
// there: redirects are not followed, and the host is a row with its error.
func TestFleetCallFollowsNoRedirect(t *testing.T) {
	var leaked atomic.Int32
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.Header.Get("Authorization"), token) {
			leaked.Add(1)
		}
		http.Error(w, "nothing here", http.StatusNotFound)
	}))
	t.Cleanup(elsewhere.Close)
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/mcp", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirecting.Close)
	f := fleetHost(t, func(f *config.FleetConf) { f.Hosts = []string{redirecting.URL} })
	got := data[callAnswer](t, call(t, f, "fleet_call", map[string]any{"tool": "perf_info", "hosts": []string{redirecting.URL}}))
	if len(got.Hosts) != 1 || got.Hosts[0].OK || got.Hosts[0].ErrorCode != "HOST_UNREACHABLE" {
		t.Errorf("%+v, want one row HOST_UNREACHABLE", got.Hosts)
	}
	if n := leaked.Load(); n != 0 {
		t.Errorf("the token reached the redirect's target %d times", n)
	}
}

// A host that answers without end is cut off at maxAnswerBytes, and is a
// row saying so.
func TestFleetCallBoundsAnAnswer(t *testing.T) {
	endless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"pad":"`))
		chunk := []byte(strings.Repeat("x", 1<<20))
		for range 64 {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
		w.Write([]byte(`"}}`))
	}))
	t.Cleanup(endless.Close)
	f := fleetHost(t, func(f *config.FleetConf) { f.Hosts = []string{endless.URL} })
	got := data[callAnswer](t, call(t, f, "fleet_call", map[string]any{"tool": "perf_info", "hosts": []string{endless.URL}}))
	if len(got.Hosts) != 1 || got.Hosts[0].ErrorCode != "HOST_UNREACHABLE" || !strings.Contains(got.Hosts[0].Summary, "over 32 MiB") {
		t.Errorf("%+v, want one row HOST_UNREACHABLE: over 32 MiB", got.Hosts)
	}
}
