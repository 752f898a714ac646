package health

import (
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// quiet is a fixture snapshot of a 4-CPU host with nothing to report over
// a 1.5 s interval; each case below changes one reading.
func quiet() hostinfo.PerfSnapshot {
	zero := uint64(0)
	return hostinfo.PerfSnapshot{
		IntervalMS: 1500,
		CPU:        hostinfo.PerfCPU{Count: 4, RunQueue: 1, Utilization: hostinfo.CPUUtil{User: 8, System: 2, Idle: 90, Busy: 10}},
		Memory: hostinfo.PerfMemory{TotalBytes: 16 << 30, AvailableBytes: 12 << 30, AvailablePercent: 75,
			SwapTotalBytes: 2 << 30, OOMKillsBoot: 3},
		IO: hostinfo.PerfIO{Devices: []hostinfo.IODevice{{Name: "vda", Utilization: 5, AvgQueueSize: 0.1, WritesPerSec: 20}}},
		Network: hostinfo.PerfNetwork{Interfaces: []hostinfo.NetInterface{{Name: "eth0", SpeedMbps: 1000, UtilizationPercent: 1}},
			TCP: hostinfo.TCPRates{OutSegs: 1000, RetransmitPercent: 0.1}},
		Pressure:    &hostinfo.Pressure{CPU: hostinfo.PSIWindow{SomePercent: 1}, Memory: hostinfo.PSIWindow{}, IO: hostinfo.PSIWindow{SomePercent: 0.5}},
		Filesystems: []hostinfo.FilesystemUse{{Disk: hostinfo.Disk{Mount: "/", Device: "/dev/vda", UsedPercent: 40, InodesUsedPercent: 10}, Errors: &zero}},
		Cgroups:     &hostinfo.PerfCgroups{Scanned: 40},
	}
}

func throttled(pct, ms float64) hostinfo.ThrottledCgroup {
	return hostinfo.ThrottledCgroup{Cgroup: "/batch", Source: "/sys/fs/cgroup/cpu/batch/cpu.stat", QuotaCPUs: 0.5, QuotaUS: 50000, PeriodUS: 100000,
		Periods: 15, ThrottledPeriods: uint64(pct * 15 / 100), ThrottledPercent: pct, ThrottledMS: ms, ThrottledTotalMS: 9000 + ms,
		Processes: []hostinfo.CgroupProcess{{PID: 4321, Comm: "encoder", CPUSeconds: 12.5}}}
}

func memLimited(pct float64, ooms uint64) hostinfo.MemoryLimitedCgroup {
	return hostinfo.MemoryLimitedCgroup{Cgroup: "/web", Source: "/sys/fs/cgroup/memory/web", LimitBytes: 1 << 30, UsageBytes: 1 << 30,
		WorkingSetBytes: uint64(pct / 100 * (1 << 30)), WorkingSetPercent: pct, OOMKills: ooms, OOMKillsTotal: ooms + 1,
		Processes: []hostinfo.CgroupProcess{{PID: 777, Comm: "java", RSSBytes: 900 << 20}}}
}

func ioLimited(pct float64) hostinfo.IOLimitedCgroup {
	dir := "/sys/fs/cgroup/blkio/backup"
	return hostinfo.IOLimitedCgroup{Cgroup: "/backup", Source: dir, CgroupIODevice: hostinfo.CgroupIODevice{Device: "vda", MajorMinor: "254:0",
		WritesPerSec: pct * 0.8, Limits: []hostinfo.IOLimit{{Kind: "write_iops", Limit: 80, Rate: pct * 0.8, UsedPercent: pct, File: dir + "/blkio.throttle.write_iops_device"}}},
		LimitUsedPercent: pct, Limit: "write_iops", Processes: []hostinfo.CgroupProcess{{PID: 99, Comm: "dd"}}}
}

// Every resource and threshold: each case sets one reading and expects
// the check of metric (on resource) to come out as severity, with a
// detail holding each of has, and, where a cgroup's limit is at work, the
// cause it names.
func TestAnalyzeUSE(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		set      func(s *hostinfo.PerfSnapshot)
		resource string
		metric   string
		severity string // healthy: no such suspicion
		cause    string // the cause kind the suspicion carries, if any
		has      []string
	}{
		{"cpu busy: below", func(s *hostinfo.PerfSnapshot) { s.CPU.Utilization.Busy = 69 }, "cpu", "cpu_busy_percent", "healthy", "", nil},
		{"cpu busy: warning", func(s *hostinfo.PerfSnapshot) { s.CPU.Utilization.Busy = 75 }, "cpu", "cpu_busy_percent", "warning", "", []string{"CPU busy 75% of 4 CPUs"}},
		{"cpu busy: critical", func(s *hostinfo.PerfSnapshot) { s.CPU.Utilization.Busy = 95 }, "cpu", "cpu_busy_percent", "critical", "", nil},
		{"run queue: warning", func(s *hostinfo.PerfSnapshot) { s.CPU.RunQueue = 6 }, "cpu", "run_queue_per_cpu", "warning", "", []string{"run queue 6.0 on 4 CPUs"}},
		{"run queue: critical", func(s *hostinfo.PerfSnapshot) { s.CPU.RunQueue = 12 }, "cpu", "run_queue_per_cpu", "critical", "", nil},
		{"psi cpu: a burst that ended is not judged", func(s *hostinfo.PerfSnapshot) {
			s.Pressure.CPU = hostinfo.PSIWindow{SomePercent: 1.4, SomeAvg10: 10.1, SomeAvg60: 4}
		}, "cpu", "psi_cpu_some_percent", "healthy", "", nil},
		{"psi cpu: warning from the window", func(s *hostinfo.PerfSnapshot) {
			s.Pressure.CPU = hostinfo.PSIWindow{SomePercent: 12, SomeAvg10: 1}
		}, "cpu", "psi_cpu_some_percent", "warning", "", []string{"PSI cpu some 12.0% of the 1.5 s interval", "avg10 1.0%"}},
		{"psi cpu: critical", func(s *hostinfo.PerfSnapshot) { s.Pressure.CPU.SomePercent = 30 }, "cpu", "psi_cpu_some_percent", "critical", "", nil},
		{"quota throttling: below", func(s *hostinfo.PerfSnapshot) {
			s.Cgroups.CPUThrottled = []hostinfo.ThrottledCgroup{throttled(4, 20)}
		}, "cpu", "cpu_throttled_percent", "healthy", "", nil},
		{"quota throttling: warning", func(s *hostinfo.PerfSnapshot) {
			s.Cgroups.CPUThrottled = []hostinfo.ThrottledCgroup{throttled(20, 100)}
		}, "cpu", "cpu_throttled_percent", "warning", "cpu_quota", []string{"cgroup /batch", "quota of 0.50 CPUs", "throttled 100 ms in the 1.5 s interval", "pid 4321 (encoder)"}},
		{"quota throttling: critical", func(s *hostinfo.PerfSnapshot) {
			s.Cgroups.CPUThrottled = []hostinfo.ThrottledCgroup{throttled(93, 700)}
		}, "cpu", "cpu_throttled_percent", "critical", "cpu_quota", nil},
		{"the stall of an idle host is the quota's", func(s *hostinfo.PerfSnapshot) {
			s.CPU.Utilization.Busy = 34
			s.Pressure.CPU.SomePercent = 35
			s.Cgroups.CPUThrottled = []hostinfo.ThrottledCgroup{throttled(93, 700)}
		}, "cpu", "psi_cpu_some_percent", "critical", "cpu_quota", []string{"this is quota throttling, not a busy host: cgroup /batch was held off the CPU 700 ms"}},
		{"a busy host's stall is not only the quota's", func(s *hostinfo.PerfSnapshot) {
			s.CPU.Utilization.Busy = 99
			s.Pressure.CPU.SomePercent = 80
			s.Cgroups.CPUThrottled = []hostinfo.ThrottledCgroup{throttled(93, 700)}
		}, "cpu", "psi_cpu_some_percent", "critical", "cpu_quota", []string{"besides the busy CPUs"}},

		{"memory available: warning", func(s *hostinfo.PerfSnapshot) { s.Memory.AvailablePercent = 15 }, "memory", "memory_available_percent", "warning", "", []string{"memory available 15.0%"}},
		{"memory available: critical", func(s *hostinfo.PerfSnapshot) { s.Memory.AvailablePercent = 5 }, "memory", "memory_available_percent", "critical", "", nil},
		{"swap: warning", func(s *hostinfo.PerfSnapshot) { s.Memory.SwapUsedBytes = 256 << 20 }, "memory", "swap_used_percent", "warning", "", []string{"swap used 12.5%"}},
		{"swap: critical", func(s *hostinfo.PerfSnapshot) { s.Memory.SwapUsedBytes = 1536 << 20 }, "memory", "swap_used_percent", "critical", "", nil},
		{"psi memory full: warning", func(s *hostinfo.PerfSnapshot) { s.Pressure.Memory.FullPercent = 6 }, "memory", "psi_memory_full_percent", "warning", "", nil},
		{"psi memory some: critical", func(s *hostinfo.PerfSnapshot) { s.Pressure.Memory.SomePercent = 40 }, "memory", "psi_memory_some_percent", "critical", "", nil},
		{"memory limit: below", func(s *hostinfo.PerfSnapshot) {
			s.Cgroups.MemoryLimited = []hostinfo.MemoryLimitedCgroup{memLimited(60, 0)}
		}, "memory", "memory_limit_used_percent", "healthy", "", nil},
		{"memory limit: warning", func(s *hostinfo.PerfSnapshot) {
			s.Cgroups.MemoryLimited = []hostinfo.MemoryLimitedCgroup{memLimited(85, 0)}
		}, "memory", "memory_limit_used_percent", "warning", "memory_limit", []string{"cgroup /web at 85% of its 1.0 GiB memory limit", "pid 777 (java) 900.0 MiB"}},
		{"memory limit: critical, and the stall is its", func(s *hostinfo.PerfSnapshot) {
			s.Cgroups.MemoryLimited = []hostinfo.MemoryLimitedCgroup{memLimited(97, 0)}
			s.Pressure.Memory.SomePercent = 30
		}, "memory", "psi_memory_some_percent", "critical", "memory_limit", []string{"cgroup /web is near its memory limit"}},
		{"oom kill: victims named with the cgroup whose limit killed them", func(s *hostinfo.PerfSnapshot) {
			s.Memory.OOMKills = 1
			s.Memory.OOMVictims = []hostinfo.OOMKill{{PID: 777, Comm: "java", Cgroup: "/web", LimitCgroup: "/web", Constraint: "CONSTRAINT_MEMCG"}}
			s.Cgroups.MemoryLimited = []hostinfo.MemoryLimitedCgroup{memLimited(40, 1)}
		}, "memory", "oom_kills", "critical", "oom_kill", []string{"1 OOM kills during the interval (3 since boot)", "pid 777 (java) in memory cgroup /web, killed at the memory limit of cgroup /web", "(limit 1.0 GiB)"}},
		{"oom kill: the host ran out", func(s *hostinfo.PerfSnapshot) {
			s.Memory.OOMKills = 1
			s.Memory.OOMVictims = []hostinfo.OOMKill{{PID: 5, Comm: "db", Cgroup: "/system.slice/db.service", Constraint: "CONSTRAINT_NONE"}}
		}, "memory", "oom_kills", "critical", "", []string{"killed at the host ran out of memory"}},
		{"oom kill: the log unread, the cgroup's counter names it", func(s *hostinfo.PerfSnapshot) {
			s.Memory.OOMKills = 1
			s.Cgroups.MemoryLimited = []hostinfo.MemoryLimitedCgroup{memLimited(40, 1)}
		}, "memory", "oom_kills", "critical", "oom_kill", []string{"1 in cgroup /web at its 1.0 GiB memory limit", "was not read"}},
		{"oom kill: nothing names it", func(s *hostinfo.PerfSnapshot) { s.Memory.OOMKills = 2 }, "memory", "oom_kills", "critical", "", []string{"was not read"}},

		{"disk busy: warning", func(s *hostinfo.PerfSnapshot) { s.IO.Devices[0].Utilization = 70 }, "disk", "disk_utilization_percent", "warning", "", []string{"vda 70% busy"}},
		{"disk busy: critical", func(s *hostinfo.PerfSnapshot) { s.IO.Devices[0].Utilization = 90 }, "disk", "disk_utilization_percent", "critical", "", nil},
		{"disk queue: warning", func(s *hostinfo.PerfSnapshot) { s.IO.Devices[0].AvgQueueSize = 3 }, "disk", "disk_avg_queue_size", "warning", "", nil},
		{"disk queue: critical", func(s *hostinfo.PerfSnapshot) { s.IO.Devices[0].AvgQueueSize = 9 }, "disk", "disk_avg_queue_size", "critical", "", nil},
		{"psi io full: critical", func(s *hostinfo.PerfSnapshot) { s.Pressure.IO.FullPercent = 20 }, "disk", "psi_io_full_percent", "critical", "", nil},
		{"io limit: below", func(s *hostinfo.PerfSnapshot) {
			s.Cgroups.IOLimited = []hostinfo.IOLimitedCgroup{ioLimited(50)}
		}, "disk", "io_limit_used_percent", "healthy", "", nil},
		{"io limit: warning", func(s *hostinfo.PerfSnapshot) {
			s.Cgroups.IOLimited = []hostinfo.IOLimitedCgroup{ioLimited(85)}
		}, "disk", "io_limit_used_percent", "warning", "io_limit", nil},
		{"io limit: the slow writes are the limit's", func(s *hostinfo.PerfSnapshot) {
			s.Cgroups.IOLimited = []hostinfo.IOLimitedCgroup{ioLimited(100)}
			s.Pressure.IO.SomePercent = 60
		}, "disk", "psi_io_some_percent", "critical", "io_limit", []string{"cgroup /backup is held at its write_iops limit on vda"}},
		{"io limit: critical, named with its file", func(s *hostinfo.PerfSnapshot) {
			s.Cgroups.IOLimited = []hostinfo.IOLimitedCgroup{ioLimited(100)}
		}, "disk", "io_limit_used_percent", "critical", "io_limit", []string{"cgroup /backup writes 80.0 I/Os/s on vda, 100% of its limit of 80 (blkio.throttle.write_iops_device)", "vda 5% busy", "pid 99 (dd)"}},

		{"link busy: warning", func(s *hostinfo.PerfSnapshot) { s.Network.Interfaces[0].UtilizationPercent = 75 }, "network", "network_utilization_percent", "warning", "", nil},
		{"drops: warning", func(s *hostinfo.PerfSnapshot) { s.Network.Interfaces[0].RxDropped = 3 }, "network", "network_drops_per_sec", "warning", "", nil},
		{"drops: critical", func(s *hostinfo.PerfSnapshot) { s.Network.Interfaces[0].TxDropped = 150 }, "network", "network_drops_per_sec", "critical", "", nil},
		{"interface errors: warning", func(s *hostinfo.PerfSnapshot) { s.Network.Interfaces[0].RxErrors = 1 }, "network", "network_errors_per_sec", "warning", "", nil},
		{"listen drops: critical", func(s *hostinfo.PerfSnapshot) { s.Network.TCP.ListenDrops = 200 }, "network", "tcp_listen_drops_per_sec", "critical", "", nil},
		{"retransmits: critical", func(s *hostinfo.PerfSnapshot) { s.Network.TCP.RetransmitPercent = 6 }, "network", "tcp_retransmit_percent", "critical", "", nil},
		{"retransmits of too few segments are not judged", func(s *hostinfo.PerfSnapshot) {
			s.Network.TCP = hostinfo.TCPRates{OutSegs: 20, RetransmitPercent: 50}
		}, "network", "tcp_retransmit_percent", "healthy", "", nil},

		{"file system: warning", func(s *hostinfo.PerfSnapshot) { s.Filesystems[0].UsedPercent = 90 }, "filesystem", "filesystem_used_percent", "warning", "", nil},
		{"file system: critical", func(s *hostinfo.PerfSnapshot) { s.Filesystems[0].UsedPercent = 97 }, "filesystem", "filesystem_used_percent", "critical", "", nil},
		{"inodes: critical", func(s *hostinfo.PerfSnapshot) { s.Filesystems[0].InodesUsedPercent = 99 }, "filesystem", "filesystem_inodes_used_percent", "critical", "", nil},
		{"ext4 errors: warning", func(s *hostinfo.PerfSnapshot) { n := uint64(2); s.Filesystems[0].Errors = &n }, "filesystem", "filesystem_errors", "warning", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := quiet()
			tc.set(&s)
			u := AnalyzeUSE(s)
			checkConsistent(t, u)
			var got *Suspicion
			for i, x := range u.Summary.TopSuspicions {
				if x.Resource == tc.resource && x.Metric == tc.metric {
					got = &u.Summary.TopSuspicions[i]
				}
			}
			if tc.severity == StatusHealthy {
				if got != nil || u.Summary.Status != StatusHealthy {
					t.Fatalf("want nothing to report, got %q %+v", u.Summary.Verdict, u.Summary.TopSuspicions)
				}
				return
			}
			if got == nil || got.Severity != tc.severity || u.Summary.Status != tc.severity {
				t.Fatalf("want %s %s, got %q %+v", tc.severity, tc.metric, u.Summary.Verdict, u.Summary.TopSuspicions)
			}
			for _, h := range tc.has {
				if !strings.Contains(got.Detail, h) {
					t.Errorf("detail %q lacks %q", got.Detail, h)
				}
			}
			switch {
			case tc.cause == "" && got.Cause != nil:
				t.Errorf("unexpected cause %+v", got.Cause)
			case tc.cause != "" && (got.Cause == nil || got.Cause.Kind != tc.cause):
				t.Errorf("want cause %s, got %+v", tc.cause, got.Cause)
			}
			if tc.cause != "" && u.Summary.TopSuspicions[0].Cause == nil {
				t.Errorf("a suspicion naming its cause should come first: %+v", u.Summary.TopSuspicions)
			}
		})
	}
	if u := AnalyzeUSE(quiet()); u.Summary.Status != StatusHealthy || u.Summary.Verdict != "healthy: no resource over its warning threshold" || u.IntervalMS != 1500 {
		t.Errorf("a quiet host: %+v", u)
	}
}

// checkConsistent checks what the issue found broken: every status is one
// of the three words, and each dimension's value is the one its status and
// detail judge.
func checkConsistent(t *testing.T, u UseCheck) {
	t.Helper()
	all := map[string]Threshold{}
	for _, th := range []Threshold{ThreshCPUBusy, ThreshRunQueue, ThreshMemAvailable, ThreshSwapUsed, ThreshOOMKills, ThreshDiskUtil,
		ThreshDiskQueue, ThreshNetUtil, ThreshNetDrops, ThreshNetErrors, ThreshListenDrops, ThreshRetransmit, ThreshFSUsed, ThreshFSInodes,
		ThreshFSErrors, ThreshThrottled, ThreshMemLimit, ThreshIOLimit} {
		all[th.Metric] = th
	}
	for _, res := range []string{"cpu", "memory", "io", "disk"} {
		all["psi_"+res+"_some_percent"], all["psi_"+res+"_full_percent"] = ThreshPSISome, ThreshPSIFull
	}
	r := u.Resources
	for name, m := range map[string]UseMetrics{"cpu": r.CPU, "memory": r.Memory, "disk": r.Disk, "network": r.Network, "filesystem": r.Filesystem} {
		for dim, v := range map[string]UseValue{"utilization": m.Utilization, "saturation": m.Saturation,
			"errors": {Metric: m.Errors.Metric, Value: m.Errors.Count, Status: m.Errors.Status, Detail: m.Errors.Detail}} {
			if v.Status != StatusHealthy && v.Status != StatusWarning && v.Status != StatusCritical {
				t.Errorf("%s %s: status %q", name, dim, v.Status)
			}
			if v.Metric == "" {
				continue
			}
			th, ok := all[v.Metric]
			if sev, _ := th.Judge(v.Value); !ok || sev != v.Status {
				t.Errorf("%s %s: %s %v judged %q, shown %q (%s)", name, dim, v.Metric, v.Value, sev, v.Status, v.Detail)
			}
		}
	}
}
