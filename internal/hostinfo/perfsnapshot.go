package hostinfo

import (
	"slices"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
)

// PerfSnapshot is perf_snapshot's PerfSnapshotData (spec 000 section 3.2).
// Counters the spec names without a unit (context_switches, page_faults,
// reads_per_sec, rx_bytes, retransmits...) are per-second rates over
// IntervalMS; *_bytes of memory are sizes.
type PerfSnapshot struct {
	IntervalMS int64       `json:"interval_ms"`
	CPU        PerfCPU     `json:"cpu"`
	Memory     PerfMemory  `json:"memory"`
	IO         PerfIO      `json:"io"`
	Network    PerfNetwork `json:"network"`
	Pressure   *Pressure   `json:"pressure,omitempty"`
	// Cgroups are the cgroups whose own limits bound their processes.
	Cgroups *PerfCgroups `json:"cgroups,omitempty" jsonschema:"cgroups whose CPU quota, memory limit or block I/O limit held their processes back during the interval, with those processes"`
	// Filesystems is the capacity of each real mount (df), read once.
	Filesystems []FilesystemUse `json:"filesystems,omitempty" jsonschema:"capacity of each real mount as df shows it, ext4's recorded errors and, on one over 85% full, the deleted files still held open"`
}

// PerfCPU is CPU utilisation, run queue and scheduler rates.
type PerfCPU struct {
	Count       int        `json:"count"` // CPUs online
	LoadAvg     [3]float64 `json:"load_avg"`
	RunQueue    float64    `json:"run_queue"`   // mean runnable tasks over the interval (procs_running)
	BlockedIO   float64    `json:"blocked_io"`  // mean tasks in uninterruptible I/O wait (procs_blocked)
	Utilization CPUUtil    `json:"utilization"` // percent of all CPUs
	// ContextSwitches and Interrupts are per second.
	ContextSwitches float64      `json:"context_switches"`
	Interrupts      float64      `json:"interrupts"`
	PerCPU          []PerCPUUtil `json:"per_cpu,omitempty"`
}

// CPUUtil splits CPU time as mpstat does, in percent; the parts sum to 100.
type CPUUtil struct {
	User    float64 `json:"user"`
	Nice    float64 `json:"nice"`
	System  float64 `json:"system"`
	Iowait  float64 `json:"iowait"`
	IRQ     float64 `json:"irq"`
	SoftIRQ float64 `json:"softirq"`
	Steal   float64 `json:"steal"`
	Idle    float64 `json:"idle"`
	Busy    float64 `json:"busy"` // 100 - idle - iowait
}

// PerCPUUtil is one CPU's split.
type PerCPUUtil struct {
	CPU int `json:"cpu"`
	CPUUtil
}

// PerfMemory is memory use and paging rates.
type PerfMemory struct {
	TotalBytes       uint64  `json:"total_bytes"`
	AvailableBytes   uint64  `json:"available_bytes"`
	AvailablePercent float64 `json:"available_percent"`
	UsedBytes        uint64  `json:"used_bytes"` // total - available
	FreeBytes        uint64  `json:"free_bytes"`
	BuffersBytes     uint64  `json:"buffers_bytes"`
	CachedBytes      uint64  `json:"cached_bytes"`
	SwapUsedBytes    uint64  `json:"swap_used_bytes"`
	SwapTotalBytes   uint64  `json:"swap_total_bytes"`
	// Rates per second from /proc/vmstat.
	PageFaults  float64 `json:"page_faults"`
	MajorFaults float64 `json:"major_faults"`
	SwapIn      float64 `json:"swap_in_pages"`
	SwapOut     float64 `json:"swap_out_pages"`
	// PagesScanned is pages the kernel scanned for reclaim per second
	// (kswapd and direct); DirectScanned is the part done by allocating tasks,
	// which stall while doing it.
	PagesScanned  float64 `json:"pages_scanned"`
	DirectScanned float64 `json:"direct_scanned"`
	OOMKills      uint64  `json:"oom_kills"`       // during the interval
	OOMKillsBoot  uint64  `json:"oom_kills_total"` // since boot
	// OOMVictims are the interval's OOM kills as the kernel logged them,
	// when there were any and the log could be read.
	OOMVictims []OOMKill `json:"oom_victims,omitempty" jsonschema:"the processes OOM-killed during the interval, from the kernel log: pid, name, memory cgroup and whose limit ran out"`
}

// PerfIO is per-device block I/O.
type PerfIO struct {
	Devices []IODevice `json:"devices"`
}

// IODevice is one disk as iostat -x reports it.
type IODevice struct {
	Name             string  `json:"name"`
	ReadsPerSec      float64 `json:"reads_per_sec"`       // r/s
	WritesPerSec     float64 `json:"writes_per_sec"`      // w/s
	ReadBytesPerSec  float64 `json:"read_bytes_per_sec"`  // rkB/s x 1024
	WriteBytesPerSec float64 `json:"write_bytes_per_sec"` // wkB/s x 1024
	AvgQueueSize     float64 `json:"avg_queue_size"`      // aqu-sz
	Utilization      float64 `json:"utilization"`         // %util
	AvgWaitMS        float64 `json:"avg_wait_ms"`         // await
	ReadAwaitMS      float64 `json:"r_await_ms"`          // r_await
	WriteAwaitMS     float64 `json:"w_await_ms"`          // w_await
	InFlight         uint64  `json:"in_flight"`           // I/Os outstanding at the end
}

// PerfNetwork is per-interface rates and TCP counters.
type PerfNetwork struct {
	Interfaces []NetInterface `json:"interfaces"`
	TCP        TCPRates       `json:"tcp"`
}

// NetInterface is one interface's rates per second.
type NetInterface struct {
	Name      string  `json:"name"`
	RxBytes   float64 `json:"rx_bytes"`
	TxBytes   float64 `json:"tx_bytes"`
	RxPackets float64 `json:"rx_packets"`
	TxPackets float64 `json:"tx_packets"`
	RxErrors  float64 `json:"rx_errors"`
	TxErrors  float64 `json:"tx_errors"`
	RxDropped float64 `json:"rx_dropped"`
	TxDropped float64 `json:"tx_dropped"`
	// SpeedMbps is the link speed sysfs reports; 0 for virtual links.
	SpeedMbps float64 `json:"speed_mbps,omitempty"`
	// UtilizationPercent is the busier direction's share of SpeedMbps.
	UtilizationPercent float64 `json:"utilization_percent,omitempty"`
}

// TCPRates are TCP's rates per second and the retransmitted share.
type TCPRates struct {
	ActiveConnections  float64 `json:"active_connections"`  // ActiveOpens/s
	PassiveConnections float64 `json:"passive_connections"` // PassiveOpens/s
	Retransmits        float64 `json:"retransmits"`         // RetransSegs/s
	InSegs             float64 `json:"in_segs"`
	OutSegs            float64 `json:"out_segs"`
	InErrs             float64 `json:"in_errs"`
	RetransmitPercent  float64 `json:"retransmit_percent"` // RetransSegs / OutSegs over the interval
	CurrEstab          int64   `json:"curr_estab"`
	ListenDrops        float64 `json:"listen_drops"` // TcpExtListenDrops/s
}

// RunQueueSample is one reading of the runnable and blocked task counts.
type RunQueueSample struct{ Running, Blocked int }

// SnapshotInput is what BuildPerfSnapshot turns into rates.
type SnapshotInput struct {
	Before, After Counters
	Gauges        Gauges
	RunQueue      []RunQueueSample // readings through the interval; empty uses After's
	PerCPU        bool
}

// BuildPerfSnapshot computes the rates between two readings. It is pure, so
// fixture pairs test it exactly.
func BuildPerfSnapshot(in SnapshotInput) PerfSnapshot {
	a, b := in.Before, in.After
	dt := b.Time.Sub(a.Time).Seconds()
	if dt <= 0 {
		dt = 1e-9
	}
	rate := func(x, y uint64) float64 { return figures.Round2(float64(delta(x, y)) / dt) }
	s := PerfSnapshot{IntervalMS: b.Time.Sub(a.Time).Milliseconds()}

	s.CPU.Count = len(b.stat.PerCPU)
	s.CPU.LoadAvg = in.Gauges.Load
	s.CPU.Utilization = cpuSplit(a.stat.CPU, b.stat.CPU)
	s.CPU.ContextSwitches = rate(a.stat.Ctxt, b.stat.Ctxt)
	s.CPU.Interrupts = rate(a.stat.Intr, b.stat.Intr)
	rq := in.RunQueue
	if len(rq) == 0 {
		rq = []RunQueueSample{{max(0, b.stat.ProcsRunning-1), b.stat.ProcsBlocked}}
	}
	for _, r := range rq {
		s.CPU.RunQueue += float64(r.Running)
		s.CPU.BlockedIO += float64(r.Blocked)
	}
	s.CPU.RunQueue = figures.Round2(s.CPU.RunQueue / float64(len(rq)))
	s.CPU.BlockedIO = figures.Round2(s.CPU.BlockedIO / float64(len(rq)))
	if in.PerCPU {
		for _, c := range b.stat.PerCPU {
			if i := slices.IndexFunc(a.stat.PerCPU, func(p perCPUTimes) bool { return p.ID == c.ID }); i >= 0 {
				s.CPU.PerCPU = append(s.CPU.PerCPU, PerCPUUtil{CPU: c.ID, CPUUtil: cpuSplit(a.stat.PerCPU[i].Times, c.Times)})
			}
		}
	}

	s.Memory = memorySection(in.Gauges.mem, a.vm, b.vm, rate)
	s.IO.Devices = ioDevices(a, b, dt)
	s.Network = networkSection(a, b, dt)
	s.Pressure = pressureWindows(a.psi, b.psi, b.Time.Sub(a.Time))
	s.Cgroups = limitedSection(a.limits, b.limits, dt)
	s.Filesystems = in.Gauges.Filesystems
	return s
}

func memorySection(m memGauge, va, vb map[string]uint64, rate func(x, y uint64) float64) PerfMemory {
	avail := min(m.Available, m.Total)
	pm := PerfMemory{
		TotalBytes: m.Total, AvailableBytes: avail, UsedBytes: m.Total - avail, FreeBytes: m.Free,
		BuffersBytes: m.Buffers, CachedBytes: m.Cached, SwapTotalBytes: m.SwapTotal,
		SwapUsedBytes: m.SwapTotal - min(m.SwapFree, m.SwapTotal),
		PageFaults:    rate(va["pgfault"], vb["pgfault"]),
		MajorFaults:   rate(va["pgmajfault"], vb["pgmajfault"]),
		SwapIn:        rate(va["pswpin"], vb["pswpin"]),
		SwapOut:       rate(va["pswpout"], vb["pswpout"]),
		OOMKills:      delta(va["oom_kill"], vb["oom_kill"]),
		OOMKillsBoot:  vb["oom_kill"],
	}
	if m.Total > 0 {
		pm.AvailablePercent = figures.Round2(float64(avail) / float64(m.Total) * 100)
	}
	// pgscan_kswapd, pgscan_direct, and on 5.x+ pgscan_khugepaged; older
	// kernels split them per zone (pgscan_direct_normal...).
	for k := range vb {
		if strings.HasPrefix(k, "pgscan_") {
			r := rate(va[k], vb[k])
			pm.PagesScanned += r
			if strings.HasPrefix(k, "pgscan_direct") {
				pm.DirectScanned += r
			}
		}
	}
	pm.PagesScanned, pm.DirectScanned = figures.Round2(pm.PagesScanned), figures.Round2(pm.DirectScanned)
	return pm
}

// ioDevices computes iostat -x's columns (sysstat's rd_stats/compute_ext_disk_stats)
// for whole disks that have done any I/O since boot.
func ioDevices(a, b Counters, dt float64) []IODevice {
	prev := map[string]diskStat{}
	for _, d := range a.disks {
		prev[d.Name] = d
	}
	out := []IODevice{}
	ms := dt * 1000
	for _, d := range b.disks {
		p, ok := prev[d.Name]
		if !ok || (b.whole != nil && !b.whole[d.Name]) || d.Reads+d.Writes+d.Discards == 0 {
			continue
		}
		rd, wr := delta(p.Reads, d.Reads), delta(p.Writes, d.Writes)
		rt, wt := delta(p.ReadTicks, d.ReadTicks), delta(p.WriteTicks, d.WriteTicks)
		dev := IODevice{
			Name:             d.Name,
			ReadsPerSec:      figures.Round2(float64(rd) / dt),
			WritesPerSec:     figures.Round2(float64(wr) / dt),
			ReadBytesPerSec:  figures.Round2(float64(delta(p.ReadSectors, d.ReadSectors)) * 512 / dt),
			WriteBytesPerSec: figures.Round2(float64(delta(p.WriteSectors, d.WriteSectors)) * 512 / dt),
			AvgQueueSize:     figures.Round2(float64(delta(p.TimeInQueue, d.TimeInQueue)) / ms),
			Utilization:      figures.Round2(min(100, float64(delta(p.IOTicks, d.IOTicks))/ms*100)),
			ReadAwaitMS:      ratio(rt, rd),
			WriteAwaitMS:     ratio(wt, wr),
			AvgWaitMS:        ratio(rt+wt+delta(p.DiscardTick, d.DiscardTick), rd+wr+delta(p.Discards, d.Discards)),
			InFlight:         d.InFlight,
		}
		out = append(out, dev)
	}
	return out
}

func networkSection(a, b Counters, dt float64) PerfNetwork {
	prev := map[string]netDevStat{}
	for _, n := range a.net {
		prev[n.Name] = n
	}
	r := func(x, y uint64) float64 { return figures.Round2(float64(delta(x, y)) / dt) }
	pn := PerfNetwork{Interfaces: []NetInterface{}}
	for _, n := range b.net {
		p, ok := prev[n.Name]
		if !ok {
			continue
		}
		ni := NetInterface{
			Name: n.Name, RxBytes: r(p.RxBytes, n.RxBytes), TxBytes: r(p.TxBytes, n.TxBytes),
			RxPackets: r(p.RxPackets, n.RxPackets), TxPackets: r(p.TxPackets, n.TxPackets),
			RxErrors: r(p.RxErrors, n.RxErrors), TxErrors: r(p.TxErrors, n.TxErrors),
			RxDropped: r(p.RxDropped, n.RxDropped), TxDropped: r(p.TxDropped, n.TxDropped),
			SpeedMbps: b.speed[n.Name],
		}
		if ni.SpeedMbps > 0 {
			ni.UtilizationPercent = figures.Round2(max(ni.RxBytes, ni.TxBytes) * 8 / (ni.SpeedMbps * 1e6) * 100)
		}
		pn.Interfaces = append(pn.Interfaces, ni)
	}
	sr := func(k string) float64 { return figures.Round2(float64(sdelta(a.snmp[k], b.snmp[k])) / dt) }
	pn.TCP = TCPRates{
		ActiveConnections: sr("TcpActiveOpens"), PassiveConnections: sr("TcpPassiveOpens"),
		Retransmits: sr("TcpRetransSegs"), InSegs: sr("TcpInSegs"), OutSegs: sr("TcpOutSegs"),
		InErrs: sr("TcpInErrs"), CurrEstab: b.snmp["TcpCurrEstab"], ListenDrops: sr("TcpExtListenDrops"),
	}
	if out := sdelta(a.snmp["TcpOutSegs"], b.snmp["TcpOutSegs"]); out > 0 {
		pn.TCP.RetransmitPercent = figures.Round2(float64(sdelta(a.snmp["TcpRetransSegs"], b.snmp["TcpRetransSegs"])) / float64(out) * 100)
	}
	return pn
}

// cpuSplit is each state's share of the jiffies that passed.
func cpuSplit(a, b cpuTimes) CPUUtil {
	total := float64(delta(a.total(), b.total()))
	if total == 0 {
		return CPUUtil{Idle: 100}
	}
	pct := func(x, y uint64) float64 { return figures.Round2(float64(delta(x, y)) / total * 100) }
	u := CPUUtil{
		User: pct(a.User, b.User), Nice: pct(a.Nice, b.Nice), System: pct(a.System, b.System),
		Iowait: pct(a.Iowait, b.Iowait), IRQ: pct(a.IRQ, b.IRQ), SoftIRQ: pct(a.SoftIRQ, b.SoftIRQ),
		Steal: pct(a.Steal, b.Steal), Idle: pct(a.Idle, b.Idle),
	}
	u.Busy = figures.Round2(max(0, min(100, 100-u.Idle-u.Iowait)))
	return u
}

// delta is y - x for a counter, 0 when it went backwards (a reset or, for
// iowait, the kernel's known non-monotonicity).
func delta(x, y uint64) uint64 {
	if y < x {
		return 0
	}
	return y - x
}

func sdelta(x, y int64) int64 { return max(0, y-x) }

func ratio(part, whole uint64) float64 {
	if whole == 0 {
		return 0
	}
	return figures.Round2(float64(part) / float64(whole))
}

// At returns the reading with its time replaced, so fixture pairs captured
// apart give rates over a known interval.
func (c Counters) At(t time.Time) Counters { c.Time = t; return c }
