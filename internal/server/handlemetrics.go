package server

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/hostmcp/hostmcp/internal/store"
)

// handleCollector exports how results kept as handles were written, read
// from the store at each scrape: a handle is given out before its write
// ends (store.PutHandleAsync), so a write that fails afterwards is seen
// here and in the log, not only by the agent that reads the handle.
type handleCollector struct{ st *store.Store }

var (
	handleWritesDesc = prometheus.NewDesc("hostmcp_handle_writes_total",
		"Handles written, by how: deferred (after the call answered), inline (pending writes full), failed (a deferred write failed; logged, read as HANDLE_NOT_KEPT).", []string{"how"}, nil)
	handlePendingDesc = prometheus.NewDesc("hostmcp_handle_pending_bytes",
		"Payload bytes of handles given out and not yet written.", nil, nil)
)

func (c handleCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- handleWritesDesc
	ch <- handlePendingDesc
}

func (c handleCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.st.HandleWriteStats()
	ch <- prometheus.MustNewConstMetric(handleWritesDesc, prometheus.CounterValue, float64(st.Deferred), "deferred")
	ch <- prometheus.MustNewConstMetric(handleWritesDesc, prometheus.CounterValue, float64(st.Inline), "inline")
	ch <- prometheus.MustNewConstMetric(handleWritesDesc, prometheus.CounterValue, float64(st.Failed), "failed")
	ch <- prometheus.MustNewConstMetric(handlePendingDesc, prometheus.GaugeValue, float64(st.PendingBytes))
}
