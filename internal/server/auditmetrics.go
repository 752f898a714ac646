package server

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/hostmcp/hostmcp/internal/store"
)

// auditCollector exports the background writer of call records, read from
// the store at each scrape: how far behind it is, what it has written, and
// any record it lost, so that an operator sees a gap in the audit trail
// where it happens and not only in the trail itself.
type auditCollector struct{ st *store.Store }

var (
	auditQueuedDesc = prometheus.NewDesc("hostmcp_audit_queued",
		"Call records waiting to be written now.", nil, nil)
	auditRecordsDesc = prometheus.NewDesc("hostmcp_audit_records_total",
		"Call records by fate: written, dropped (the queue was full), failed (the write failed; logged).", []string{"fate"}, nil)
	auditBatchesDesc = prometheus.NewDesc("hostmcp_audit_batches_total",
		"Transactions that wrote call records.", nil, nil)
	auditSecondsDesc = prometheus.NewDesc("hostmcp_audit_write_seconds_total",
		"Time spent writing call records, off every call's path.", nil, nil)
)

func (c auditCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{auditQueuedDesc, auditRecordsDesc, auditBatchesDesc, auditSecondsDesc} {
		ch <- d
	}
}

func (c auditCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.st.CallQueueStats()
	ch <- prometheus.MustNewConstMetric(auditQueuedDesc, prometheus.GaugeValue, float64(st.Queued))
	ch <- prometheus.MustNewConstMetric(auditRecordsDesc, prometheus.CounterValue, float64(st.Written), "written")
	ch <- prometheus.MustNewConstMetric(auditRecordsDesc, prometheus.CounterValue, float64(st.Dropped), "dropped")
	ch <- prometheus.MustNewConstMetric(auditRecordsDesc, prometheus.CounterValue, float64(st.Failed), "failed")
	ch <- prometheus.MustNewConstMetric(auditBatchesDesc, prometheus.CounterValue, float64(st.Batches))
	ch <- prometheus.MustNewConstMetric(auditSecondsDesc, prometheus.CounterValue, st.WriteTime.Seconds())
}
