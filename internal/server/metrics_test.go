package server

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
)

// The Go and process collectors join the registry when the metrics are
// first served, and are there from the first scrape on; a second scrape
// registers nothing twice.
func TestMetricsServeRuntimeCollectors(t *testing.T) {
	m := NewMetrics()
	h := m.Handler()
	for scrape := range 2 {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		body, _ := io.ReadAll(rec.Body)
		for _, name := range []string{"go_goroutines ", "go_memstats_heap_alloc_bytes ", "process_resident_memory_bytes "} {
			if rec.Code != 200 || !strings.Contains(string(body), name) {
				t.Errorf("scrape %d (status %d) lacks %q", scrape, rec.Code, name)
			}
		}
	}
}
