package server

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/sampler"
)

// healthCollector exports at each scrape what perf_use_check judges, over
// the sampler's recent window and with internal/health's thresholds and
// verdicts, so a fleet's Prometheus can rank hosts by the same judgement an
// agent gets. The scrape reads no file: the sampler did.
type healthCollector struct{ smp *sampler.Sampler }

// maxFilesystems bounds hostmcp_filesystem_used_ratio's series: the
// fullest real file systems only.
const maxFilesystems = 32

// firstWindowWait bounds the wait of a scrape that finds the sampler idle.
const firstWindowWait = 2 * time.Second

var (
	healthUpDesc = prometheus.NewDesc("hostmcp_health_up",
		"1 when the health metrics below were measured; 0 when the host's counters could not be read.", nil, nil)
	healthStatusDesc = prometheus.NewDesc("hostmcp_health_status",
		"USE check verdict of each resource (cpu, memory, disk, network, filesystem) and dimension (utilization, saturation, errors) over the sampler's window, with perf_use_check's thresholds: 0 healthy, 1 warning, 2 critical.",
		[]string{"resource", "dimension"}, nil)
	healthValueDesc = prometheus.NewDesc("hostmcp_health_value",
		"The value hostmcp_health_status judged: the worst check of that resource and dimension, in that check's unit (percent, run queue per CPU, a rate per second or a count; perf_use_check names the metric).",
		[]string{"resource", "dimension"}, nil)
	healthOverallDesc = prometheus.NewDesc("hostmcp_health_overall_status",
		"The USE check's verdict for the whole host over the sampler's window: 0 healthy, 1 warning, 2 critical.", nil, nil)
	psiRatioDesc = prometheus.NewDesc("hostmcp_psi_stall_ratio",
		"Share of the sampler's window in which some task (kind=some) or every non-idle task (kind=full) stalled on the resource, from the growth of /proc/pressure's total= counters; 0 to 1. Absent without PSI.",
		[]string{"resource", "kind"}, nil)
	psiTotalDesc = prometheus.NewDesc("hostmcp_psi_stall_seconds_total",
		"Stall time since boot from /proc/pressure's total= counters, at the window's end; rate() gives the stall share over any range.",
		[]string{"resource", "kind"}, nil)
	runQueueDesc = prometheus.NewDesc("hostmcp_cpu_runqueue_per_cpu",
		"Runnable tasks per online CPU, averaged over the sampler's readings in its window (perf_use_check's CPU saturation).", nil, nil)
	throttledDesc = prometheus.NewDesc("hostmcp_cgroup_throttled_ratio",
		"Share of CFS periods in which the cgroup's CPU quota throttled it over the window; only the 5 most throttled cgroups, and only those throttled at all.",
		[]string{"cgroup"}, nil)
	fsUsedDesc = prometheus.NewDesc("hostmcp_filesystem_used_ratio",
		"Used share of each real file system's space as df shows it (used / (used + available)), read every 30 s; the 32 fullest at most.",
		[]string{"mountpoint"}, nil)
	windowSecondsDesc = prometheus.NewDesc("hostmcp_health_window_seconds",
		"Length of the window the health metrics were measured over.", nil, nil)
	windowEndDesc = prometheus.NewDesc("hostmcp_health_window_end_timestamp_seconds",
		"When the window's last reading was taken, Unix time.", nil, nil)
)

func (c healthCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{healthUpDesc, healthStatusDesc, healthValueDesc, healthOverallDesc, psiRatioDesc,
		psiTotalDesc, runQueueDesc, throttledDesc, fsUsedDesc, windowSecondsDesc, windowEndDesc} {
		ch <- d
	}
}

func (c healthCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), firstWindowWait)
	defer cancel()
	w, err := c.smp.Window(ctx)
	if err != nil {
		ch <- gauge(healthUpDesc, 0)
		return
	}
	ch <- gauge(healthUpDesc, 1)
	collectWindow(ch, w)
}

// collectWindow exports the judgement of one window.
func collectWindow(ch chan<- prometheus.Metric, w sampler.Window) {
	ch <- gauge(windowSecondsDesc, w.End.Sub(w.Start).Seconds())
	ch <- gauge(windowEndDesc, float64(w.End.UnixNano())/1e9)
	use := health.AnalyzeUSE(w.Snapshot)
	ch <- gauge(healthOverallDesc, float64(health.Level(use.Summary.Status)))
	r := use.Resources
	for _, res := range []struct {
		name string
		m    health.UseMetrics
	}{{"cpu", r.CPU}, {"memory", r.Memory}, {"disk", r.Disk}, {"network", r.Network}, {"filesystem", r.Filesystem}} {
		for _, d := range []struct {
			name, status string
			value        float64
		}{
			{"utilization", res.m.Utilization.Status, res.m.Utilization.Value},
			{"saturation", res.m.Saturation.Status, res.m.Saturation.Value},
			{"errors", res.m.Errors.Status, res.m.Errors.Count},
		} {
			ch <- gauge(healthStatusDesc, float64(health.Level(d.status)), res.name, d.name)
			ch <- gauge(healthValueDesc, d.value, res.name, d.name)
		}
	}
	snap := w.Snapshot
	if snap.CPU.Count > 0 {
		ch <- gauge(runQueueDesc, snap.CPU.RunQueue/float64(snap.CPU.Count))
	}
	collectPressure(ch, snap.Pressure)
	if snap.Cgroups != nil {
		for _, t := range snap.Cgroups.CPUThrottled {
			ch <- gauge(throttledDesc, t.ThrottledPercent/100, t.Cgroup)
		}
	}
	collectFilesystems(ch, snap.Filesystems)
}

// collectPressure exports each resource's stall share and counter.
func collectPressure(ch chan<- prometheus.Metric, p *hostinfo.Pressure) {
	if p == nil {
		return
	}
	for _, r := range []struct {
		name string
		w    hostinfo.PSIWindow
	}{{"cpu", p.CPU}, {"memory", p.Memory}, {"io", p.IO}} {
		ch <- gauge(psiRatioDesc, r.w.SomePercent/100, r.name, "some")
		ch <- gauge(psiRatioDesc, r.w.FullPercent/100, r.name, "full")
		ch <- prometheus.MustNewConstMetric(psiTotalDesc, prometheus.CounterValue, float64(r.w.SomeTotalUS)/1e6, r.name, "some")
		ch <- prometheus.MustNewConstMetric(psiTotalDesc, prometheus.CounterValue, float64(r.w.FullTotalUS)/1e6, r.name, "full")
	}
}

// collectFilesystems exports the fullest maxFilesystems real file systems.
func collectFilesystems(ch chan<- prometheus.Metric, fss []hostinfo.FilesystemUse) {
	fss = slices.Clone(fss)
	slices.SortStableFunc(fss, func(a, b hostinfo.FilesystemUse) int { return cmp.Compare(b.UsedPercent, a.UsedPercent) })
	for _, f := range fss[:min(len(fss), maxFilesystems)] {
		ch <- gauge(fsUsedDesc, f.UsedPercent/100, f.Mount)
	}
}

func gauge(d *prometheus.Desc, v float64, labels ...string) prometheus.Metric {
	return prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
}
