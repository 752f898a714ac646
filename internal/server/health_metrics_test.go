package server

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/sampler"
)

// series gathers reg into name -> label values joined by "," in the order
// of their names (dimension before resource, kind before resource) -> value.
func series(t *testing.T, reg prometheus.Gatherer) map[string]map[string]float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]float64{}
	for _, mf := range mfs {
		m := map[string]float64{}
		for _, s := range mf.GetMetric() {
			key := ""
			for i, l := range s.GetLabel() {
				if i > 0 {
					key += ","
				}
				key += l.GetValue()
			}
			m[key] = value(s)
		}
		out[mf.GetName()] = m
	}
	return out
}

func value(s *dto.Metric) float64 {
	if s.GetCounter() != nil {
		return s.GetCounter().GetValue()
	}
	return s.GetGauge().GetValue()
}

// newFrozen is a sampler that keeps its first window (Every of an hour),
// so a test judges the same window the scrape did.
func newFrozen(host *hostinfo.Host) *sampler.Sampler {
	return sampler.New(host, &sampler.Options{Every: time.Hour})
}

func frozenSampler(t *testing.T, host *hostinfo.Host) *sampler.Sampler {
	s := newFrozen(host)
	t.Cleanup(s.Close)
	return s
}

// The scrape exports internal/health's verdict of the sampler's window,
// one status and value per resource and dimension, with the same numbers
// AnalyzeUSE gives for that window.
func TestHealthMetricsAreTheUSEVerdict(t *testing.T) {
	smp := frozenSampler(t, hostinfo.New(hostinfo.Roots{}))
	reg := prometheus.NewRegistry()
	reg.MustRegister(healthCollector{smp})
	got := series(t, reg)

	w, err := smp.Window(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	use := health.AnalyzeUSE(w.Snapshot)
	r := use.Resources
	want := map[string]health.UseMetrics{"cpu": r.CPU, "memory": r.Memory, "disk": r.Disk, "network": r.Network, "filesystem": r.Filesystem}
	if n := len(got["hostmcp_health_status"]); n != 15 {
		t.Errorf("%d status series, want 5 resources x 3 dimensions: %v", n, got["hostmcp_health_status"])
	}
	for res, m := range want {
		for dim, v := range map[string]struct {
			status string
			value  float64
		}{"utilization": {m.Utilization.Status, m.Utilization.Value}, "saturation": {m.Saturation.Status, m.Saturation.Value}, "errors": {m.Errors.Status, m.Errors.Count}} {
			key := dim + "," + res
			if s := got["hostmcp_health_status"][key]; s != float64(health.Level(v.status)) {
				t.Errorf("status %s = %v, want %s", key, s, v.status)
			}
			if x := got["hostmcp_health_value"][key]; x != v.value {
				t.Errorf("value %s = %v, want %v", key, x, v.value)
			}
		}
	}
	if o := got["hostmcp_health_overall_status"][""]; o != float64(health.Level(use.Summary.Status)) {
		t.Errorf("overall %v, want %s", o, use.Summary.Status)
	}
	if rq := got["hostmcp_cpu_runqueue_per_cpu"][""]; rq != w.Snapshot.CPU.RunQueue/float64(w.Snapshot.CPU.Count) {
		t.Errorf("run queue per CPU %v, window says %v on %d", rq, w.Snapshot.CPU.RunQueue, w.Snapshot.CPU.Count)
	}
	if s := got["hostmcp_health_window_seconds"][""]; s != w.End.Sub(w.Start).Seconds() || s <= 0 {
		t.Errorf("window %v s, sampler's %v", s, w.End.Sub(w.Start))
	}
	if got["hostmcp_health_up"][""] != 1 {
		t.Error("hostmcp_health_up is not 1")
	}
	if _, err := os.Stat("/proc/pressure/cpu"); err == nil {
		for _, key := range []string{"some,cpu", "some,memory", "full,memory", "some,io", "full,io"} {
			v, ok := got["hostmcp_psi_stall_ratio"][key]
			if !ok || v < 0 || v > 1 {
				t.Errorf("psi stall ratio %s = %v (present %v), want a share 0 to 1", key, v, ok)
			}
		}
		if got["hostmcp_psi_stall_seconds_total"]["some,cpu"] != float64(w.Snapshot.Pressure.CPU.SomeTotalUS)/1e6 {
			t.Errorf("psi cpu some total %v, window's %d us", got["hostmcp_psi_stall_seconds_total"]["some,cpu"], w.Snapshot.Pressure.CPU.SomeTotalUS)
		}
	}
	fs := got["hostmcp_filesystem_used_ratio"]
	if len(fs) == 0 || len(fs) > maxFilesystems {
		t.Errorf("%d file systems exported", len(fs))
	}
	for _, f := range w.Snapshot.Filesystems {
		if v, ok := fs[f.Mount]; ok && v != f.UsedPercent/100 {
			t.Errorf("%s used %v, df says %v%%", f.Mount, v, f.UsedPercent)
		}
	}
}

// A host short of memory is exported as critical with the value judged;
// a host without PSI has no PSI series.
func TestHealthMetricsCritical(t *testing.T) {
	proc, sys := t.TempDir(), t.TempDir()
	files := map[string]string{
		filepath.Join(proc, "stat"):    "cpu  100 0 0 900 0 0 0 0 0 0\ncpu0 100 0 0 900 0 0 0 0 0 0\nprocs_running 1\nprocs_blocked 0\n",
		filepath.Join(proc, "meminfo"): "MemTotal: 1000000 kB\nMemFree: 40000 kB\nMemAvailable: 50000 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n",
		filepath.Join(proc, "loadavg"): "0.10 0.10 0.10 1/100 1\n",
	}
	for p, b := range files {
		if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	smp := frozenSampler(t, hostinfo.New(hostinfo.Roots{Proc: proc, Sys: sys}))
	reg := prometheus.NewRegistry()
	reg.MustRegister(healthCollector{smp})
	got := series(t, reg)
	if s, v := got["hostmcp_health_status"]["utilization,memory"], got["hostmcp_health_value"]["utilization,memory"]; s != 2 || v != 5 {
		t.Errorf("memory utilisation status %v value %v, want critical (2) at 5%% available", s, v)
	}
	if got["hostmcp_health_overall_status"][""] != 2 {
		t.Errorf("overall %v, want critical", got["hostmcp_health_overall_status"][""])
	}
	if _, ok := got["hostmcp_psi_stall_ratio"]; ok {
		t.Error("PSI series exported for a host without /proc/pressure")
	}
}

// A host whose counters cannot be read says so, and the scrape still
// answers.
func TestHealthMetricsDown(t *testing.T) {
	smp := frozenSampler(t, hostinfo.New(hostinfo.Roots{Proc: t.TempDir(), Sys: t.TempDir()}))
	reg := prometheus.NewRegistry()
	reg.MustRegister(healthCollector{smp})
	got := series(t, reg)
	if v, ok := got["hostmcp_health_up"][""]; !ok || v != 0 {
		t.Errorf("hostmcp_health_up %v (present %v), want 0", v, ok)
	}
	if _, ok := got["hostmcp_health_status"]; ok {
		t.Error("statuses exported without a window")
	}
}

// fixedWindow exports one window, as the collector does the sampler's.
type fixedWindow struct{ w sampler.Window }

func (f fixedWindow) Describe(ch chan<- *prometheus.Desc) { healthCollector{}.Describe(ch) }
func (f fixedWindow) Collect(ch chan<- prometheus.Metric) { collectWindow(ch, f.w) }

// A cgroup held back by its CPU quota between two readings of a captured
// cgroup v2 host (internal/hostinfo's limits-v2 fixture: 16 of 20 periods
// throttled) is exported by its path, and makes CPU saturation critical.
func TestHealthMetricsThrottledCgroup(t *testing.T) {
	read := func(side string, at time.Time) hostinfo.Counters {
		dir := filepath.Join("..", "hostinfo", "testdata", "limits-v2", side)
		h := hostinfo.New(hostinfo.Roots{Proc: dir + "/proc", Sys: dir + "/sys", RootFS: dir})
		c, _, err := h.ReadCounters(&hostinfo.CounterOptions{Limits: true})
		if err != nil {
			t.Fatal(err)
		}
		return c.At(at)
	}
	t0 := time.Unix(1_000_000, 0)
	a, b := read("a", t0), read("b", t0.Add(2*time.Second))
	w := sampler.Window{Start: a.Time, End: b.Time, Snapshot: hostinfo.BuildPerfSnapshot(hostinfo.SnapshotInput{Before: a, After: b})}
	reg := prometheus.NewRegistry()
	reg.MustRegister(fixedWindow{w})
	got := series(t, reg)
	const cg = "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod9e1d.slice/cri-containerd-77c2.scope"
	if th := got["hostmcp_cgroup_throttled_ratio"]; len(th) != 1 || th[cg] != 0.8 {
		t.Errorf("throttled cgroups %v, want %s at 0.8", th, cg)
	}
	if s := got["hostmcp_health_status"]["saturation,cpu"]; s != 2 {
		t.Errorf("cpu saturation status %v, want critical for a cgroup throttled in 80%% of periods", s)
	}
	if ws := got["hostmcp_health_window_seconds"][""]; ws != 2 {
		t.Errorf("window %v s, want 2", ws)
	}
}
