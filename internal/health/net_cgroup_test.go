package health

import (
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// perf_net_health's thresholds, one reading at a time.
func TestAnalyzeNet(t *testing.T) {
	t.Parallel()
	base := func() hostinfo.NetHealth {
		return hostinfo.NetHealth{IntervalMS: 1000, Interfaces: []hostinfo.NetIfHealth{{Name: "eth0"}},
			TCP: &hostinfo.TCPHealth{OutSegsPerS: 500}}
	}
	tests := []struct {
		name, metric, severity string
		set                    func(n *hostinfo.NetHealth)
		has                    string
	}{
		{"quiet", "", StatusHealthy, func(*hostinfo.NetHealth) {}, ""},
		{"drops: warning", "network_drops_per_sec", StatusWarning, func(n *hostinfo.NetHealth) { n.Interfaces[0].RxDroppedPerS = 2 }, "eth0 drops 2.0 packets/s"},
		{"errors: critical", "network_errors_per_sec", StatusCritical, func(n *hostinfo.NetHealth) { n.Interfaces[0].TxErrorsPerS = 120 }, ""},
		{"retransmits: warning", "tcp_retransmit_percent", StatusWarning, func(n *hostinfo.NetHealth) { n.TCP.RetransmitPercent = 2 }, ""},
		{"retransmits of few segments", "", StatusHealthy, func(n *hostinfo.NetHealth) { n.TCP.OutSegsPerS, n.TCP.RetransmitPercent = 10, 30 }, ""},
		{"listen drops: critical", "tcp_listen_drops_per_sec", StatusCritical, func(n *hostinfo.NetHealth) { n.TCP.ListenDropsPerS = 101 }, ""},
		{"accept queue: below", "", StatusHealthy, func(n *hostinfo.NetHealth) {
			n.ListenQueues = []hostinfo.Listener{{Addr: "0.0.0.0:80", AcceptQueue: 4, Backlog: 10}}
		}, ""},
		{"accept queue: warning", "listen_queue_fill_percent", StatusWarning, func(n *hostinfo.NetHealth) {
			n.ListenQueues = []hostinfo.Listener{{Addr: "0.0.0.0:80", AcceptQueue: 6, Backlog: 10, PID: 42, Comm: "nginx"}}
		}, "0.0.0.0:80 accept queue 6 of backlog 10, held by pid 42 (nginx)"},
		{"accept queue: full", "listen_queue_fill_percent", StatusCritical, func(n *hostinfo.NetHealth) {
			n.ListenQueues = []hostinfo.Listener{{Addr: "[::]:443", AcceptQueue: 129, Backlog: 128}}
		}, "held by a process not found"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := base()
			tc.set(&n)
			s := AnalyzeNet(&n)
			if s.Status != tc.severity {
				t.Fatalf("status %s, want %s: %+v", s.Status, tc.severity, s)
			}
			if tc.metric != "" && (len(s.TopSuspicions) == 0 || s.TopSuspicions[0].Metric != tc.metric || !strings.Contains(s.TopSuspicions[0].Detail, tc.has)) {
				t.Errorf("want %s with %q first: %+v", tc.metric, tc.has, s.TopSuspicions)
			}
		})
	}
}

// perf_cgroup_summary's thresholds, one reading at a time: throttling,
// memory and task limits, OOM kills since creation (a warning: they may be
// old), and the cgroup's own pressure over the interval, never the host's.
func TestAnalyzeCgroup(t *testing.T) {
	t.Parallel()
	quota, limit, pids := 0.5, uint64(1<<30), uint64(100)
	own := []hostinfo.CgroupSource{{Hierarchy: "v2", Cgroup: "/x", Files: []string{"/sys/fs/cgroup/x/memory.pressure"}}}
	base := func() hostinfo.CgroupSummary {
		return hostinfo.CgroupSummary{IntervalMS: 2000,
			CPU:    &hostinfo.CgroupCPU{QuotaCPUs: &quota, ThrottledPercent: 1, UsagePercent: 20},
			Memory: &hostinfo.CgroupMemory{CurrentBytes: 100 << 20, LimitBytes: &limit, LimitPercent: 9.77},
			PIDs:   &hostinfo.CgroupPIDs{Current: 10, Max: &pids},
			// The v2 root's (the host's) PSI, as read on a hybrid host, is
			// not the cgroup's and is not judged.
			Pressure: &hostinfo.CgroupPressure{CPU: &hostinfo.PSIStats{Some: hostinfo.PSILine{Avg10: 90}}},
		}
	}
	tests := []struct {
		name, metric, severity string
		set                    func(s *hostinfo.CgroupSummary)
		has                    string
	}{
		{"quiet", "", StatusHealthy, func(*hostinfo.CgroupSummary) {}, ""},
		{"throttled: warning", "cpu_throttled_percent", StatusWarning, func(s *hostinfo.CgroupSummary) { s.CPU.ThrottledPercent = 10 }, "quota 0.50 CPUs"},
		{"throttled: critical", "cpu_throttled_percent", StatusCritical, func(s *hostinfo.CgroupSummary) { s.CPU.ThrottledPercent = 60 }, ""},
		{"memory limit: warning", "memory_limit_used_percent", StatusWarning, func(s *hostinfo.CgroupSummary) { s.Memory.LimitPercent = 85 }, ""},
		{"memory limit: critical", "memory_limit_used_percent", StatusCritical, func(s *hostinfo.CgroupSummary) { s.Memory.LimitPercent = 95 }, ""},
		{"oom kills since creation", "oom_kills", StatusWarning, func(s *hostinfo.CgroupSummary) { s.Memory.OOMKills = 2 }, "2 processes OOM-killed"},
		{"tasks: critical", "pids_limit_used_percent", StatusCritical, func(s *hostinfo.CgroupSummary) { s.PIDs.Current = 95 }, "95 tasks of 100 allowed"},
		{"own pressure: critical", "psi_memory_some_percent", StatusCritical, func(s *hostinfo.CgroupSummary) {
			s.PressureWindow = &hostinfo.CgroupPressureWindow{From: own, Memory: &hostinfo.PSIWindow{SomePercent: 40, SomeAvg10: 2}}
		}, "PSI memory some 40.0% of the 2.0 s interval in this cgroup"},
		{"own pressure: a burst that ended", "", StatusHealthy, func(s *hostinfo.CgroupSummary) {
			s.PressureWindow = &hostinfo.CgroupPressureWindow{From: own, CPU: &hostinfo.PSIWindow{SomePercent: 0.5, SomeAvg10: 60}}
		}, ""},
		{"pressure read at a root: the host's", "psi_io_some_percent", StatusCritical, func(s *hostinfo.CgroupSummary) {
			s.PressureWindow = &hostinfo.CgroupPressureWindow{From: []hostinfo.CgroupSource{{Hierarchy: "v2", Cgroup: "/", HostWide: true}},
				IO: &hostinfo.PSIWindow{SomePercent: 30}}
		}, "PSI io some 30.0% of the 2.0 s interval host-wide (read at the root cgroup, not this cgroup's own)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := base()
			tc.set(&c)
			s := AnalyzeCgroup(&c)
			if s.Status != tc.severity {
				t.Fatalf("status %s, want %s: %+v", s.Status, tc.severity, s)
			}
			if tc.metric != "" && (len(s.TopSuspicions) == 0 || s.TopSuspicions[0].Metric != tc.metric || !strings.Contains(s.TopSuspicions[0].Detail, tc.has)) {
				t.Errorf("want %s with %q first: %+v", tc.metric, tc.has, s.TopSuspicions)
			}
		})
	}
}
