package hostinfo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
)

// CgroupSummary is perf_cgroup_summary's data (spec 000 section 9.8).
type CgroupSummary struct {
	CgroupDirs
	IntervalMS int64           `json:"interval_ms"`
	CPU        *CgroupCPU      `json:"cpu,omitempty"`
	Memory     *CgroupMemory   `json:"memory,omitempty"`
	Pressure   *CgroupPressure `json:"pressure,omitempty"`
	IO         *CgroupIO       `json:"io,omitempty"`
	PIDs       *CgroupPIDs     `json:"pids,omitempty"`
	// PressureWindow is the cgroup's own stall over the interval.
	PressureWindow *CgroupPressureWindow `json:"pressure_window,omitempty" jsonschema:"the cgroup's own stall over the interval from its v2 pressure files' total= counters; absent when it has none of its own (v1 only, or the v2 root, whose files are the host's)"`
}

// CgroupCPU is a cgroup's CPU use and throttling: totals since the cgroup
// was created, and rates over the interval.
type CgroupCPU struct {
	Source string         `json:"source"` // "v2" or "v1"
	From   []CgroupSource `json:"from"`
	// UsagePercent is CPU time used per wall time over the interval; 100 is
	// one whole CPU.
	UsagePercent float64 `json:"usage_percent"`
	UsageSeconds float64 `json:"usage_seconds"` // since creation
	// QuotaCPUs is quota/period, the CPUs the cgroup may use; absent when
	// unlimited.
	QuotaCPUs *float64 `json:"quota_cpus,omitempty"`
	QuotaUS   uint64   `json:"quota_us,omitempty"`
	PeriodUS  uint64   `json:"period_us,omitempty"`
	// NrPeriods, NrThrottled and ThrottledSeconds are totals since creation.
	NrPeriods        uint64  `json:"nr_periods"`
	NrThrottled      uint64  `json:"nr_throttled"`
	ThrottledSeconds float64 `json:"throttled_seconds"`
	// ThrottledPercent is the share of the interval's enforcement periods in
	// which the cgroup ran out of quota.
	ThrottledPercent float64 `json:"throttled_percent"`
	ThrottledMSPerS  float64 `json:"throttled_ms_per_sec"`
}

// CgroupMemory is a cgroup's memory use against its limit.
type CgroupMemory struct {
	Source       string            `json:"source"`
	From         []CgroupSource    `json:"from"`
	CurrentBytes uint64            `json:"current_bytes"`
	LimitBytes   *uint64           `json:"limit_bytes,omitempty"` // absent when unlimited
	LimitPercent float64           `json:"limit_percent,omitempty"`
	Stat         map[string]uint64 `json:"stat"`       // highlights of memory.stat
	OOMEvents    uint64            `json:"oom_events"` // times the limit was hit and reclaim failed
	OOMKills     uint64            `json:"oom_kills"`  // processes killed by the OOM killer
	MaxEvents    uint64            `json:"max_events"` // v2: times usage hit memory.max; v1: failcnt
	UnderOOM     bool              `json:"under_oom,omitempty"`
}

// CgroupPressure is PSI from the cgroup's v2 directory: its own, unless
// From says host-wide (a process at the root of the unified tree of a
// hybrid host).
type CgroupPressure struct {
	From   []CgroupSource `json:"from"`
	CPU    *PSIStats      `json:"cpu,omitempty"`
	Memory *PSIStats      `json:"memory,omitempty"`
	IO     *PSIStats      `json:"io,omitempty"`
}

// CgroupPIDs is the task count against its limit.
type CgroupPIDs struct {
	From    []CgroupSource `json:"from"`
	Current uint64         `json:"current"`
	Max     *uint64        `json:"max,omitempty"`
}

// SampleCgroup reads the counters of d that become rates.
func (h *Host) SampleCgroup(d CgroupDirs) CgroupSample {
	s := CgroupSample{Time: time.Now()}
	s.cpu = readCgCPU(d)
	s.io = h.SampleCgroupIO(d)
	s.psi = ownPressure(d)
	return s
}

func readCgCPU(d CgroupDirs) cgCPU {
	var c cgCPU
	if d.V2 != "" && exists(filepath.Join(d.V2, "cpu.max")) || d.V1["cpu"] == "" && d.V2 != "" {
		st, err := readKeyed(filepath.Join(d.V2, "cpu.stat"))
		if err != nil {
			return c
		}
		return cgCPU{usageNS: st["usage_usec"] * 1000, periods: st["nr_periods"], throttled: st["nr_throttled"],
			throttledNS: st["throttled_usec"] * 1000, ok: true}
	}
	if dir := d.V1["cpu"]; dir != "" {
		st, err := readKeyed(filepath.Join(dir, "cpu.stat"))
		if err == nil {
			c = cgCPU{periods: st["nr_periods"], throttled: st["nr_throttled"], throttledNS: st["throttled_time"], ok: true}
		}
	}
	acct := d.V1["cpuacct"]
	if acct == "" {
		acct = d.V1["cpu"]
	}
	if v, err := readUint(filepath.Join(acct, "cpuacct.usage")); err == nil {
		c.usageNS, c.ok = v, true
	}
	return c
}

// BuildCgroupSummary reads the gauges of d and computes rates between two
// samples. Missing controllers leave their section out with a warning.
func (h *Host) BuildCgroupSummary(d CgroupDirs, a, b CgroupSample) (CgroupSummary, []string) {
	var w warnings
	dt := b.Time.Sub(a.Time).Seconds()
	if dt <= 0 {
		dt = 1e-9
	}
	s := CgroupSummary{CgroupDirs: d, IntervalMS: b.Time.Sub(a.Time).Milliseconds()}
	s.CPU = h.cgroupCPU(d, a.cpu, b.cpu, dt, &w)
	s.Memory = cgroupMemory(d, &w)
	s.Pressure = cgroupPressure(d)
	s.PIDs = cgroupPIDs(d)
	s.PressureWindow = ownPressureWindow(a.psi, b.psi, b.Time.Sub(a.Time))
	aio, bio := a.io, b.io
	aio.Time, bio.Time = a.Time, b.Time // one interval for every rate
	if s.IO = h.CgroupIOOver(aio, bio); s.IO == nil {
		w.add("no block I/O controller (v2 io or v1 blkio) for this cgroup")
	}
	w = append(w, b.io.warn...)
	d.attachSources(&s)
	return s, w
}

func (h *Host) cgroupCPU(d CgroupDirs, a, b cgCPU, dt float64, w *warnings) *CgroupCPU {
	if !b.ok {
		w.add("no CPU accounting for this cgroup")
		return nil
	}
	c := &CgroupCPU{Source: "v1", UsageSeconds: figures.Round2(float64(b.usageNS) / 1e9),
		UsagePercent: figures.Round2(float64(delta(a.usageNS, b.usageNS)) / 1e9 / dt * 100),
		NrPeriods:    b.periods, NrThrottled: b.throttled, ThrottledSeconds: figures.Round2(float64(b.throttledNS) / 1e9),
		ThrottledMSPerS: figures.Round2(float64(delta(a.throttledNS, b.throttledNS)) / 1e6 / dt)}
	if p := delta(a.periods, b.periods); p > 0 {
		c.ThrottledPercent = figures.Round2(float64(delta(a.throttled, b.throttled)) / float64(p) * 100)
	}
	if d.V2 != "" && exists(filepath.Join(d.V2, "cpu.max")) {
		c.Source = "v2"
		if bs, err := os.ReadFile(filepath.Join(d.V2, "cpu.max")); err == nil {
			var err error
			if c.QuotaCPUs, c.QuotaUS, c.PeriodUS, err = parseCPUMax(bs); err != nil {
				w.add("%v", err)
			}
		}
		return c
	}
	if d.V1["cpu"] == "" {
		c.Source = "v2"
		return c
	}
	q, err1 := readTrimmed(filepath.Join(d.V1["cpu"], "cpu.cfs_quota_us"))
	per, err2 := readUint(filepath.Join(d.V1["cpu"], "cpu.cfs_period_us"))
	if err1 == nil && err2 == nil && per > 0 {
		c.PeriodUS = per
		if quota, err := parseCgroupMax(q); err == nil && quota != nil {
			c.QuotaUS = *quota
			v := figures.Round3(float64(*quota) / float64(per))
			c.QuotaCPUs = &v
		}
	}
	return c
}

// memHighlights are the memory.stat fields worth an agent's attention.
var memHighlights = []string{"anon", "file", "kernel", "kernel_stack", "slab", "sock", "shmem", "file_dirty",
	"file_writeback", "swap", "pgfault", "pgmajfault", "workingset_refault_anon", "workingset_refault_file",
	"rss", "cache", "mapped_file", "dirty", "writeback", "total_rss", "total_cache"}

func cgroupMemory(d CgroupDirs, w *warnings) *CgroupMemory {
	m := &CgroupMemory{Stat: map[string]uint64{}}
	var statPath string
	switch {
	case d.V2 != "" && exists(filepath.Join(d.V2, "memory.current")):
		m.Source = "v2"
		cur, err := readUint(filepath.Join(d.V2, "memory.current"))
		if err != nil {
			w.add("memory.current: %v", err)
		}
		m.CurrentBytes = cur
		if s, err := readTrimmed(filepath.Join(d.V2, "memory.max")); err == nil {
			m.LimitBytes, _ = parseCgroupMax(s)
		}
		if ev, err := readKeyed(filepath.Join(d.V2, "memory.events")); err == nil {
			m.OOMEvents, m.OOMKills, m.MaxEvents = ev["oom"], ev["oom_kill"], ev["max"]
		}
		statPath = filepath.Join(d.V2, "memory.stat")
	case d.V1["memory"] != "":
		dir := d.V1["memory"]
		m.Source = "v1"
		m.CurrentBytes, _ = readUint(filepath.Join(dir, "memory.usage_in_bytes"))
		if s, err := readTrimmed(filepath.Join(dir, "memory.limit_in_bytes")); err == nil {
			m.LimitBytes, _ = parseCgroupMax(s)
		}
		if oc, err := readKeyed(filepath.Join(dir, "memory.oom_control")); err == nil {
			m.OOMKills, m.UnderOOM = oc["oom_kill"], oc["under_oom"] == 1
		}
		m.MaxEvents, _ = readUint(filepath.Join(dir, "memory.failcnt"))
		statPath = filepath.Join(dir, "memory.stat")
	default:
		w.add("no memory controller for this cgroup")
		return nil
	}
	if st, err := readKeyed(statPath); err == nil {
		for _, k := range memHighlights {
			if v, ok := st[k]; ok {
				m.Stat[k] = v
			}
		}
	}
	if m.LimitBytes != nil && *m.LimitBytes > 0 {
		m.LimitPercent = figures.Round2(float64(m.CurrentBytes) / float64(*m.LimitBytes) * 100)
	}
	return m
}

func cgroupPressure(d CgroupDirs) *CgroupPressure {
	if d.V2 == "" {
		return nil
	}
	read := func(name string) *PSIStats {
		b, err := os.ReadFile(filepath.Join(d.V2, name+".pressure"))
		if err != nil {
			return nil
		}
		st, err := parsePSI(b)
		if err != nil {
			return nil
		}
		return &st
	}
	p := &CgroupPressure{CPU: read("cpu"), Memory: read("memory"), IO: read("io")}
	if p.CPU == nil && p.Memory == nil && p.IO == nil {
		return nil
	}
	return p
}

func cgroupPIDs(d CgroupDirs) *CgroupPIDs {
	dir := d.V1["pids"]
	if d.V2 != "" && exists(filepath.Join(d.V2, "pids.current")) {
		dir = d.V2
	}
	if dir == "" {
		return nil
	}
	cur, err := readUint(filepath.Join(dir, "pids.current"))
	if err != nil {
		return nil
	}
	p := &CgroupPIDs{Current: cur}
	if s, err := readTrimmed(filepath.Join(dir, "pids.max")); err == nil {
		p.Max, _ = parseCgroupMax(s)
	}
	return p
}

func readKeyed(p string) (map[string]uint64, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	m, err := parseKeyedUints(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return m, nil
}

func readUint(p string) (uint64, error) {
	s, err := readTrimmed(p)
	if err != nil {
		return 0, err
	}
	return parseUintStr(strings.TrimSpace(s))
}
