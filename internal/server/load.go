package server

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/hostmcp/hostmcp/internal/admit"
	"github.com/hostmcp/hostmcp/internal/config"
)

// NewAdmission builds the load limits of [load]. The app builds one and
// hands it to both the server and execx, so the programs a tool starts and
// the calls that start them share one bound.
func NewAdmission(cfg *config.Config) *admit.Control {
	l := cfg.Load
	return admit.New(&admit.Options{
		MaxCalls:           l.MaxCalls,
		QueuedCalls:        l.QueuedCalls,
		MaxProgramCalls:    l.MaxProgramCalls,
		QueuedProgramCalls: l.QueuedProgramCalls,
		QueueWait:          l.QueueWait.Duration,
		CallsPerSecond:     l.CallsPerSecond,
		Burst:              l.Burst,
		MaxHTTPRequests:    l.MaxHTTPRequests,
	})
}

// clientID names the caller for its rate limit. Over HTTP it is the bearer
// token presented, as a short digest (the token itself is never kept), so
// every client holding one token shares its bucket, and the clients of a
// server without a token share one; on stdio it is the session.
func clientID(req *mcp.CallToolRequest, fallback string) string {
	if req.Extra != nil && req.Extra.Header != nil {
		token, _ := strings.CutPrefix(req.Extra.Header.Get("Authorization"), "Bearer ")
		sum := sha256.Sum256([]byte(strings.TrimSpace(token)))
		return "http:" + hex.EncodeToString(sum[:6])
	}
	return "session:" + sessionName(req.Session, fallback)
}

// loadCollector exports the limits in force and what they refused, read
// from the admission control at each scrape: the counts live where the
// refusals happen, whichever path (runner, execx, HTTP handler) met them.
type loadCollector struct{ ctl *admit.Control }

var (
	refusedDesc = prometheus.NewDesc("hostmcp_load_refused_total",
		"Calls and HTTP requests refused, by reason (BUSY, RATE_LIMITED, HTTP_429) and the limit that refused them.",
		[]string{"reason", "limit"}, nil)
	inFlightDesc = prometheus.NewDesc("hostmcp_load_in_flight",
		"Slots held now: calls, calls that start programs (and their children), HTTP requests.", []string{"limit"}, nil)
	waitingDesc = prometheus.NewDesc("hostmcp_load_waiting",
		"Calls waiting for a slot now.", []string{"limit"}, nil)
	slotsDesc = prometheus.NewDesc("hostmcp_load_slots",
		"The limit in force: slots of each gate ([load] max_calls, max_program_calls, max_http_requests).", []string{"limit"}, nil)
	queueDesc = prometheus.NewDesc("hostmcp_load_queue_slots",
		"The limit in force: callers each gate lets wait ([load] queued_calls, queued_program_calls).", []string{"limit"}, nil)
	rateDesc = prometheus.NewDesc("hostmcp_load_rate_per_second",
		"The limit in force: each client's calls per second ([load] calls_per_second).", nil, nil)
	burstDesc = prometheus.NewDesc("hostmcp_load_rate_burst",
		"The limit in force: each client's burst ([load] burst).", nil, nil)
)

func (c loadCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{refusedDesc, inFlightDesc, waitingDesc, slotsDesc, queueDesc, rateDesc, burstDesc} {
		ch <- d
	}
}

func (c loadCollector) Collect(ch chan<- prometheus.Metric) {
	for _, g := range []*admit.Gate{c.ctl.Calls(), c.ctl.Programs(), c.ctl.HTTP()} {
		reason := "BUSY"
		if g == c.ctl.HTTP() {
			reason = "HTTP_429"
		}
		ch <- prometheus.MustNewConstMetric(refusedDesc, prometheus.CounterValue, float64(g.Refused()), reason, g.Name())
		ch <- prometheus.MustNewConstMetric(inFlightDesc, prometheus.GaugeValue, float64(g.InUse()), g.Name())
		ch <- prometheus.MustNewConstMetric(slotsDesc, prometheus.GaugeValue, float64(g.Size()), g.Name())
		if g != c.ctl.HTTP() {
			ch <- prometheus.MustNewConstMetric(waitingDesc, prometheus.GaugeValue, float64(g.Waiting()), g.Name())
			ch <- prometheus.MustNewConstMetric(queueDesc, prometheus.GaugeValue, float64(g.Queue()), g.Name())
		}
	}
	r := c.ctl.Rates()
	ch <- prometheus.MustNewConstMetric(refusedDesc, prometheus.CounterValue, float64(r.Refused()), "RATE_LIMITED", "rate")
	ch <- prometheus.MustNewConstMetric(rateDesc, prometheus.GaugeValue, r.PerSecond())
	ch <- prometheus.MustNewConstMetric(burstDesc, prometheus.GaugeValue, float64(r.Burst()))
}
