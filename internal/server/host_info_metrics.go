package server

import (
	"os"

	"github.com/prometheus/client_golang/prometheus"
)

// hostInfoCollector exports the host's name as a label, so a fleet's
// Prometheus (and fleet_overview) can name each instance by the host it
// runs on rather than by its address. The name is read at each scrape from
// the UTS namespace hostmcp runs in, as hostname(1) does, so a renamed host
// shows its new name.
type hostInfoCollector struct{}

var hostInfoDesc = prometheus.NewDesc("hostmcp_host_info",
	"Always 1; the hostname label is the host's name (its UTS namespace's, as hostname prints it).",
	[]string{"hostname"}, nil)

func (hostInfoCollector) Describe(ch chan<- *prometheus.Desc) { ch <- hostInfoDesc }

func (hostInfoCollector) Collect(ch chan<- prometheus.Metric) {
	name, err := os.Hostname()
	if err != nil {
		ch <- prometheus.NewInvalidMetric(hostInfoDesc, err)
		return
	}
	ch <- gauge(hostInfoDesc, 1, name)
}
