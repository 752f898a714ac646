package server

import (
	"net/http"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// Metrics holds the server's Prometheus collectors in a registry of its own,
// so tests can build many servers in one process.
type Metrics struct {
	reg     *prometheus.Registry
	calls   *prometheus.CounterVec
	latency *prometheus.HistogramVec
	bytes   *prometheus.CounterVec
	confirm *prometheus.CounterVec
	// runtime registers the Go and process collectors once, when the
	// metrics are first served: building the Go collector walks every
	// runtime/metrics description, start-up work and memory a server over
	// stdio, which serves no metrics, would hold for nothing.
	runtime sync.Once
}

// NewMetrics registers the call metrics; the Go and process collectors
// join them when the metrics are first served (Handler, Gather).
func NewMetrics() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hostmcp_tool_calls_total",
			Help: "Tool calls by tool, outcome (ok or error) and error code.",
		}, []string{"tool", "outcome", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "hostmcp_tool_call_duration_seconds",
			Help:    "Tool call latency by tool.",
			Buckets: []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"tool"}),
		bytes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hostmcp_tool_result_bytes_total",
			Help: "Bytes of results returned, by tool.",
		}, []string{"tool"}),
		confirm: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hostmcp_confirmations_total",
			Help: "Calls that needed a person's confirmation ([confirm]) or were dry runs, by tool and what came of it (confirmed, declined, refused, dry_run...).",
		}, []string{"tool", "confirmation"}),
	}
	m.reg.MustRegister(m.calls, m.latency, m.bytes, m.confirm)
	return m
}

// withRuntime registers the Go and process collectors, once.
func (m *Metrics) withRuntime() *prometheus.Registry {
	m.runtime.Do(func() {
		m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	})
	return m.reg
}

func (m *Metrics) observe(name string, res tool.Result) {
	outcome, code := "ok", ""
	if res.Err != nil {
		outcome, code = "error", string(res.Err.Code)
	}
	m.calls.WithLabelValues(name, outcome, code).Inc()
	m.latency.WithLabelValues(name).Observe(res.Duration.Seconds())
	m.bytes.WithLabelValues(name).Add(float64(len(res.JSON)))
	if res.Confirmation != tool.ConfirmNone {
		m.confirm.WithLabelValues(name, string(res.Confirmation)).Inc()
	}
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.withRuntime(), promhttp.HandlerOpts{})
}

// Gather exposes the registry to tests.
func (m *Metrics) Gather() prometheus.Gatherer { return m.withRuntime() }
