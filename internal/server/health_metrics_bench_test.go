package server

import (
	"io"
	"net/http/httptest"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/sampler"
)

// BenchmarkHealthScrape is what the health metrics add to a scrape once the
// sampler has its window: judging it with internal/health and building the
// series (bench/RESULTS.md; the target is a few ms at most).
func BenchmarkHealthScrape(b *testing.B) {
	reg := prometheus.NewRegistry()
	reg.MustRegister(healthCollector{frozenSamplerB(b)})
	if _, err := reg.Gather(); err != nil { // the sampler's first window
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reg.Gather(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMetricsHandler is a whole /metrics answer in the text format
// (the call metrics, the Go and process collectors) without and with the
// health metrics, the baseline beside the figure.
func BenchmarkMetricsHandler(b *testing.B) {
	for _, withHealth := range []bool{false, true} {
		name := "without-health"
		if withHealth {
			name = "with-health"
		}
		b.Run(name, func(b *testing.B) {
			m := NewMetrics()
			if withHealth {
				m.reg.MustRegister(healthCollector{frozenSamplerB(b)})
			}
			h := promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
			serve := func() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
				if w.Code != 200 {
					b.Fatalf("status %d", w.Code)
				}
				_, _ = io.Copy(io.Discard, w.Body)
			}
			serve()
			b.ReportAllocs()
			for b.Loop() {
				serve()
			}
		})
	}
}

func frozenSamplerB(b *testing.B) *sampler.Sampler {
	s := newFrozen(hostinfo.New(hostinfo.Roots{}))
	b.Cleanup(s.Close)
	return s
}
