package hostinfo

import (
	"cmp"
	"slices"

	"github.com/hostmcp/hostmcp/internal/figures"
)

// maxLimited is how many cgroups each list of PerfCgroups keeps.
const maxLimited = 5

// PerfCgroups are the cgroups whose own limits bound their processes
// during the interval, from every cgroup with a limit in every mounted
// hierarchy (v1 controllers and the v2 tree). Each number names the file
// it came from.
type PerfCgroups struct {
	Scanned int  `json:"scanned" jsonschema:"cgroup directories looked at"`
	Partial bool `json:"partial,omitempty" jsonschema:"true when the host has more cgroups than one scan reads (5000, or 300 ms of reading): the lists may miss some"`
	// CPUThrottled are the cgroups whose CPU quota ran out during the
	// interval, most throttled time first.
	CPUThrottled []ThrottledCgroup `json:"cpu_throttled" jsonschema:"cgroups whose CFS quota ran out during the interval, most throttled time first (at most 5)"`
	// MemoryLimited are cgroups with a memory limit: any that had OOM kills
	// during the interval, then the fullest.
	MemoryLimited []MemoryLimitedCgroup `json:"memory_limited" jsonschema:"cgroups with a memory limit: those with OOM kills during the interval first, then the fullest (at most 5)"`
	// IOLimited are devices a cgroup has block I/O limits on, nearest a
	// limit first.
	IOLimited []IOLimitedCgroup `json:"io_limited" jsonschema:"block I/O limits of cgroups (blkio.throttle or io.max), per device, the rate nearest its limit first (at most 5)"`
}

// ThrottledCgroup is one cgroup's CFS quota throttling over the interval.
type ThrottledCgroup struct {
	Cgroup string `json:"cgroup" jsonschema:"path inside its hierarchy"`
	Source string `json:"source" jsonschema:"the cpu.stat file the counters come from"`
	// QuotaCPUs is quota/period: the CPUs' worth of time allowed per period.
	QuotaCPUs float64 `json:"quota_cpus"`
	QuotaUS   uint64  `json:"quota_us"`
	PeriodUS  uint64  `json:"period_us"`
	// Periods and ThrottledPeriods are the growth of nr_periods and
	// nr_throttled over the interval.
	Periods          uint64  `json:"periods"`
	ThrottledPeriods uint64  `json:"throttled_periods"`
	ThrottledPercent float64 `json:"throttled_percent" jsonschema:"throttled periods per period with runnable tasks, percent"`
	// ThrottledMS is the growth of throttled_time (v1, ns) or
	// throttled_usec (v2): how long its run queues were held off the CPU,
	// summed over CPUs. ThrottledTotalMS is the counter at the end of the
	// interval, since the cgroup was made.
	ThrottledMS      float64         `json:"throttled_ms"`
	ThrottledTotalMS float64         `json:"throttled_total_ms"`
	Processes        []CgroupProcess `json:"processes" jsonschema:"its processes (and its children's), most CPU time first (at most 5)"`
}

// MemoryLimitedCgroup is one cgroup's memory use against its limit.
type MemoryLimitedCgroup struct {
	Cgroup     string `json:"cgroup" jsonschema:"path inside its hierarchy"`
	Source     string `json:"source" jsonschema:"the directory whose memory files were read"`
	LimitBytes uint64 `json:"limit_bytes"`
	UsageBytes uint64 `json:"usage_bytes" jsonschema:"memory.usage_in_bytes (v1) or memory.current (v2), page cache included"`
	// WorkingSetBytes is usage less inactive file pages, which the kernel
	// reclaims before it kills anything.
	WorkingSetBytes   uint64  `json:"working_set_bytes"`
	WorkingSetPercent float64 `json:"working_set_percent" jsonschema:"working set per limit, percent"`
	// OOMKills is the growth of oom_kill over the interval (the cgroup and
	// those below it); OOMKillsTotal the counter at its end.
	OOMKills      uint64          `json:"oom_kills"`
	OOMKillsTotal uint64          `json:"oom_kills_total"`
	LimitHits     uint64          `json:"limit_hits" jsonschema:"times usage hit the limit during the interval (v1 memory.failcnt, v2 memory.events max)"`
	Processes     []CgroupProcess `json:"processes" jsonschema:"its processes (and its children's), largest resident set first (at most 5)"`
}

// IOLimitedCgroup is one cgroup's I/O on one device with a limit: the
// device as perf_cgroup_summary shows it (totals, rates over the interval,
// and each limit with the rate against it and the file it is set in), and
// the limit it came nearest.
type IOLimitedCgroup struct {
	Cgroup string `json:"cgroup" jsonschema:"path inside its hierarchy"`
	Source string `json:"source" jsonschema:"the directory whose limit and counter files were read"`
	CgroupIODevice
	// LimitUsedPercent is the highest used_percent of its limits, and Limit
	// names that limit's kind: at 100 the device would take more, the limit
	// holds the cgroup back.
	LimitUsedPercent float64         `json:"limit_used_percent"`
	Limit            string          `json:"limit" jsonschema:"the kind of the limit nearest: read_bps, write_bps, read_iops or write_iops"`
	Processes        []CgroupProcess `json:"processes" jsonschema:"its processes (and its children's), most CPU time first (at most 5)"`
}

// Nearest is the limit Limit names: the one the cgroup came nearest.
func (c IOLimitedCgroup) Nearest() IOLimit {
	for _, l := range c.Limits {
		if l.Kind == c.Limit {
			return l
		}
	}
	return IOLimit{Kind: c.Limit}
}

// limitedSection computes PerfCgroups between two scans dt seconds apart;
// nil when neither scan read any cgroup.
func limitedSection(a, b cgroupLimits, dt float64) *PerfCgroups {
	if b.dirs == 0 {
		return nil
	}
	c := &PerfCgroups{Scanned: b.dirs, Partial: a.partial || b.partial,
		CPUThrottled: []ThrottledCgroup{}, MemoryLimited: []MemoryLimitedCgroup{}, IOLimited: []IOLimitedCgroup{}}
	for key, q := range b.cpu {
		p, ok := a.cpu[key]
		if !ok || delta(p.throttledNS, q.throttledNS) == 0 && delta(p.throttled, q.throttled) == 0 {
			continue
		}
		t := ThrottledCgroup{Cgroup: q.cgroup, Source: q.stat, QuotaUS: q.quotaUS, PeriodUS: q.periodUS,
			QuotaCPUs: figures.Round3(float64(q.quotaUS) / float64(q.periodUS)), Periods: delta(p.periods, q.periods),
			ThrottledPeriods: delta(p.throttled, q.throttled), ThrottledMS: figures.Round3(float64(delta(p.throttledNS, q.throttledNS)) / 1e6),
			ThrottledTotalMS: figures.Round3(float64(q.throttledNS) / 1e6), Processes: []CgroupProcess{}}
		if t.Periods > 0 {
			t.ThrottledPercent = figures.Round2(float64(t.ThrottledPeriods) / float64(t.Periods) * 100)
		}
		c.CPUThrottled = append(c.CPUThrottled, t)
	}
	slices.SortFunc(c.CPUThrottled, func(x, y ThrottledCgroup) int {
		return cmp.Or(cmp.Compare(y.ThrottledMS, x.ThrottledMS), cmp.Compare(x.Cgroup, y.Cgroup))
	})
	c.CPUThrottled = c.CPUThrottled[:min(len(c.CPUThrottled), maxLimited)]

	for key, m := range b.mem {
		p, ok := a.mem[key]
		if !ok {
			p = m // made during the interval: no growth to report
		}
		ws := m.usage - min(m.inactiveFile, m.usage)
		c.MemoryLimited = append(c.MemoryLimited, MemoryLimitedCgroup{Cgroup: m.cgroup, Source: m.dir, LimitBytes: m.limit,
			UsageBytes: m.usage, WorkingSetBytes: ws, WorkingSetPercent: figures.Round2(float64(ws) / float64(max(m.limit, 1)) * 100),
			OOMKills: delta(p.oomKills, m.oomKills), OOMKillsTotal: m.oomKills, LimitHits: delta(p.limitHits, m.limitHits),
			Processes: []CgroupProcess{}})
	}
	slices.SortFunc(c.MemoryLimited, func(x, y MemoryLimitedCgroup) int {
		return cmp.Or(cmp.Compare(y.OOMKills, x.OOMKills), cmp.Compare(y.WorkingSetPercent, x.WorkingSetPercent), cmp.Compare(x.Cgroup, y.Cgroup))
	})
	c.MemoryLimited = c.MemoryLimited[:min(len(c.MemoryLimited), maxLimited)]

	for key, r := range b.io {
		before, ok := a.io[key]
		if !ok {
			before = r // made during the interval: no growth to report
		}
		name := func(dev string) string { return cmp.Or(r.names[dev], dev) }
		for _, d := range ioDevicesOver(before.sample, r.sample, dt, name) {
			if len(d.Limits) == 0 {
				continue // a device it uses without a limit
			}
			nearest := slices.MaxFunc(d.Limits, func(x, y IOLimit) int { return cmp.Compare(x.UsedPercent, y.UsedPercent) })
			c.IOLimited = append(c.IOLimited, IOLimitedCgroup{Cgroup: r.cgroup, Source: r.dir, CgroupIODevice: d,
				LimitUsedPercent: nearest.UsedPercent, Limit: nearest.Kind, Processes: []CgroupProcess{}})
		}
	}
	slices.SortFunc(c.IOLimited, func(x, y IOLimitedCgroup) int {
		return cmp.Or(cmp.Compare(y.LimitUsedPercent, x.LimitUsedPercent), cmp.Compare(x.Cgroup, y.Cgroup), cmp.Compare(x.Device, y.Device))
	})
	c.IOLimited = c.IOLimited[:min(len(c.IOLimited), maxLimited)]
	return c
}
