package server

import (
	"os"
	"testing"
)

// Every server's /metrics names the host it runs on, read from the UTS
// namespace as os.Hostname reads it: fleet_overview names hosts by it.
func TestMetricsNameTheHost(t *testing.T) {
	want, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t, nil)
	got := series(t, s.Metrics().Gather())["hostmcp_host_info"]
	if len(got) != 1 || got[want] != 1 {
		t.Errorf("hostmcp_host_info: %v, want one series hostname=%q with value 1", got, want)
	}
}
