package hostinfo

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// maxLimitDirs and limitScanBudget bound one scan of the cgroup
// hierarchies (one at each end of an interval): a host with more cgroups
// than this, or so many that reading them takes longer, gets a partial
// reading, which says so. A cgroup costs some 20 to 150 µs to read,
// depending on the host's load.
const (
	maxLimitDirs    = 5000
	limitScanBudget = 300 * time.Millisecond
)

// cgroupLimits is one reading of every cgroup that holds a CPU quota, a
// memory limit or a block I/O limit, in every mounted hierarchy (each v1
// controller's and the v2 tree), keyed by the directory as the host's
// processes see it (so that fixture trees pair up too): the counters
// that say whether the limit held its processes back. A host can look idle
// while one cgroup is starved by its own limit.
type cgroupLimits struct {
	cpu      map[string]quotaReading
	mem      map[string]memLimitReading
	io       map[string]ioLimitReading
	dirs     int  // cgroup directories looked at
	partial  bool // stopped at maxLimitDirs or the deadline
	deadline time.Time
}

// quotaReading is a cgroup's CFS bandwidth limit and its counters.
type quotaReading struct {
	cgroup, stat                    string // path in the hierarchy; the cpu.stat file read
	quotaUS, periodUS               uint64
	periods, throttled, throttledNS uint64
}

// memLimitReading is a cgroup's memory limit and use.
type memLimitReading struct {
	cgroup, dir                string
	limit, usage, inactiveFile uint64
	oomKills, limitHits        uint64 // oom_kill; v1 failcnt, v2 memory.events max
}

// ioLimitReading is a cgroup's block I/O limits and counters, read as
// perf_cgroup_summary reads them (cgroup_io.go), and the names of the
// devices it has limits on.
type ioLimitReading struct {
	cgroup, dir string
	sample      CgroupIOSample
	names       map[string]string // major:minor -> the device's name
}

// readCgroupLimits walks every mounted cgroup hierarchy. Without cgroups
// nothing limits anything: an empty reading, not an error.
func (h *Host) readCgroupLimits() cgroupLimits {
	l := cgroupLimits{cpu: map[string]quotaReading{}, mem: map[string]memLimitReading{}, io: map[string]ioLimitReading{},
		deadline: time.Now().Add(limitScanBudget)}
	mounts, err := h.cgroupMounts()
	if err != nil {
		return l
	}
	for _, m := range mounts {
		v2 := m.Version == 2
		cpu := v2 || hasController(m, "cpu")
		mem := v2 || hasController(m, "memory")
		blk := v2 || hasController(m, "blkio")
		if !cpu && !mem && !blk {
			continue
		}
		l.walk(m.Point, func(dir, rel string) {
			cg, key := path.Join(m.Root, rel), path.Join(m.Shown, rel)
			if cpu {
				if q, ok := limitQuota(dir, v2); ok {
					q.cgroup = cg
					l.cpu[key] = q
				}
			}
			if mem {
				if r, ok := limitMemory(dir, v2); ok {
					r.cgroup = cg
					l.mem[key] = r
				}
			}
			if blk {
				if r, ok := limitIO(dir, v2); ok {
					r.cgroup, r.names = cg, map[string]string{}
					for _, x := range r.sample.limits {
						r.names[x.Dev] = h.BlockName(x.Dev)
					}
					l.io[key] = r
				}
			}
		})
	}
	return l
}

func hasController(m cgroupMount, c string) bool {
	for _, x := range m.Controllers {
		if x == c {
			return true
		}
	}
	return false
}

// walk calls fn on root and every directory below it, breadth first, with
// its path relative to root ("/" for root), until maxLimitDirs in all or
// the deadline.
func (l *cgroupLimits) walk(root string, fn func(dir, rel string)) {
	queue := []string{"/"}
	for len(queue) > 0 {
		if l.dirs >= maxLimitDirs || l.dirs%64 == 0 && time.Now().After(l.deadline) {
			l.partial = true
			return
		}
		rel := queue[0]
		queue = queue[1:]
		dir := filepath.Join(root, filepath.FromSlash(rel))
		l.dirs++
		fn(dir, rel)
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue // removed meanwhile
		}
		for _, e := range entries {
			if e.IsDir() {
				queue = append(queue, path.Join(rel, e.Name()))
			}
		}
	}
}

// limitQuota reads a cgroup's CPU quota and, when it has one, its throttling
// counters: v2 cpu.max and cpu.stat (throttled_usec), v1 cpu.cfs_quota_us,
// cpu.cfs_period_us and cpu.stat (throttled_time, ns)
// (Documentation/scheduler/sched-bwc.rst).
func limitQuota(dir string, v2 bool) (quotaReading, bool) {
	q := quotaReading{stat: filepath.Join(dir, "cpu.stat")}
	if v2 {
		b, err := os.ReadFile(filepath.Join(dir, "cpu.max"))
		if err != nil {
			return q, false
		}
		cpus, quota, period, err := parseCPUMax(b)
		if err != nil || cpus == nil {
			return q, false
		}
		q.quotaUS, q.periodUS = quota, period
	} else {
		s, err := readTrimmed(filepath.Join(dir, "cpu.cfs_quota_us"))
		if err != nil || strings.HasPrefix(s, "-") {
			return q, false
		}
		if q.quotaUS, err = parseUintStr(s); err != nil {
			return q, false
		}
		if q.periodUS, err = readUint(filepath.Join(dir, "cpu.cfs_period_us")); err != nil || q.periodUS == 0 {
			return q, false
		}
	}
	st, err := readKeyed(q.stat)
	if err != nil {
		return q, false
	}
	q.periods, q.throttled = st["nr_periods"], st["nr_throttled"]
	if v2 {
		q.throttledNS = st["throttled_usec"] * 1000
	} else {
		q.throttledNS = st["throttled_time"]
	}
	return q, true
}

// limitMemory reads a cgroup's memory limit and, when it has one, its use
// and events: v2 memory.max, memory.current, memory.stat and
// memory.events; v1 memory.limit_in_bytes, memory.usage_in_bytes,
// memory.stat, memory.oom_control and memory.failcnt. Both count OOM kills
// in the cgroup and below it.
func limitMemory(dir string, v2 bool) (memLimitReading, bool) {
	r := memLimitReading{dir: dir}
	limitFile, usageFile, inactive := "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"
	if v2 {
		limitFile, usageFile, inactive = "memory.max", "memory.current", "inactive_file"
	}
	s, err := readTrimmed(filepath.Join(dir, limitFile))
	if err != nil {
		return r, false
	}
	limit, err := parseCgroupMax(s)
	if err != nil || limit == nil {
		return r, false
	}
	r.limit = *limit
	if r.usage, err = readUint(filepath.Join(dir, usageFile)); err != nil {
		return r, false
	}
	if st, err := readKeyed(filepath.Join(dir, "memory.stat")); err == nil {
		r.inactiveFile = st[inactive]
	}
	if v2 {
		if ev, err := readKeyed(filepath.Join(dir, "memory.events")); err == nil {
			r.oomKills, r.limitHits = ev["oom_kill"], ev["max"]
		}
	} else {
		if oc, err := readKeyed(filepath.Join(dir, "memory.oom_control")); err == nil {
			r.oomKills = oc["oom_kill"]
		}
		r.limitHits, _ = readUint(filepath.Join(dir, "memory.failcnt"))
	}
	return r, true
}

// limitIO reads a cgroup's block I/O limits and, when it has any, its
// I/O counters, through the readers of perf_cgroup_summary: v2 io.max and
// io.stat; v1 the blkio.throttle.*_device files,
// blkio.throttle.io_service_bytes and io_serviced.
func limitIO(dir string, v2 bool) (ioLimitReading, bool) {
	r := ioLimitReading{dir: dir}
	var src CgroupSource // the files read; the scan's rows name the directory
	r.sample.readLimits(&src, dir, v2)
	if len(r.sample.limits) == 0 {
		return r, false
	}
	r.sample.readCounters(&src, dir, v2)
	return r, true
}
