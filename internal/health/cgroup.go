package health

import (
	"fmt"
	"strings"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// CgroupCheck is perf_cgroup_summary's answer: the reading and its verdict.
type CgroupCheck struct {
	hostinfo.CgroupSummary
	Summary UseSummary `json:"summary"`
}

// AnalyzeCgroup judges perf_cgroup_summary's reading: the cgroup's
// throttling, limits and its own pressure over the interval. What was read
// at a root cgroup is filed as the host's, not the cgroup's.
func AnalyzeCgroup(s *hostinfo.CgroupSummary) UseSummary {
	var fs []finding
	if c := s.CPU; c != nil {
		quota := "no quota"
		if c.QuotaCPUs != nil {
			quota = fmt.Sprintf("quota %.2f CPUs", *c.QuotaCPUs)
		}
		fs = append(fs, check("cgroup", "saturation", ThreshThrottled, ThreshThrottled.Metric, c.ThrottledPercent,
			fmt.Sprintf("CPU throttled in %.0f%% of periods (%.0f ms/s), %s, using %.0f%% of a CPU",
				c.ThrottledPercent, c.ThrottledMSPerS, quota, c.UsagePercent)))
	}
	if m := s.Memory; m != nil {
		if m.LimitBytes != nil {
			fs = append(fs, check("cgroup", "utilization", ThreshMemLimit, ThreshMemLimit.Metric, m.LimitPercent,
				fmt.Sprintf("memory %s of its %s limit (%.0f%%)", figures.IEC(m.CurrentBytes), figures.IEC(*m.LimitBytes), m.LimitPercent)))
		}
		res, where := scope(m.From, "memory")
		f := check(res, "errors", ThreshCgroupOOM, ThreshCgroupOOM.Metric, float64(m.OOMKills),
			fmt.Sprintf("%d processes OOM-killed %s", m.OOMKills, where))
		if !f.ok {
			f.Severity = StatusWarning // since creation, not necessarily now
		}
		fs = append(fs, f)
	}
	if p := s.PIDs; p != nil && p.Max != nil && *p.Max > 0 {
		pct := float64(p.Current) / float64(*p.Max) * 100
		fs = append(fs, check("cgroup", "utilization", ThreshPIDsLimit, ThreshPIDsLimit.Metric, pct,
			fmt.Sprintf("%d tasks of %d allowed", p.Current, *p.Max)))
	}
	fs = append(fs, ioLimitFindings(s.IO)...)
	// Only the cgroup's own pressure files are judged (pressure_window: the
	// v2 root's, which are the host's, give none); in a cgroup namespace,
	// whose root they may be, scope files them as host-wide.
	if p := s.PressureWindow; p != nil {
		secs := float64(s.IntervalMS) / 1000
		for _, r := range []struct {
			name, hostResource string
			w                  *hostinfo.PSIWindow
		}{{"cpu", "cpu", p.CPU}, {"memory", "memory", p.Memory}, {"io", "disk", p.IO}} {
			if r.w == nil {
				continue
			}
			res, where := scope(p.From, r.hostResource)
			fs = append(fs, check(res, "saturation", ThreshPSISome, fmt.Sprintf(ThreshPSISome.Metric, r.name), r.w.SomePercent,
				fmt.Sprintf("PSI %s some %.1f%% of the %.1f s interval %s (avg10 %.1f%%)", r.name, r.w.SomePercent, secs, where, r.w.SomeAvg10)))
			if r.name != "cpu" || r.w.FullTotalUS > 0 { // a cgroup's cpu full is meaningful (5.13+), the host's is not
				fs = append(fs, check(res, "saturation", ThreshPSIFull, fmt.Sprintf(ThreshPSIFull.Metric, r.name), r.w.FullPercent,
					fmt.Sprintf("PSI %s full %.1f%% of the %.1f s interval %s (avg10 %.1f%%)", r.name, r.w.FullPercent, secs, where, r.w.FullAvg10)))
			}
		}
	}
	return summarize(fs)
}

// ioLimitFindings judges each throttle limit of the cgroup against its
// rate over the interval.
func ioLimitFindings(io *hostinfo.CgroupIO) []finding {
	if io == nil {
		return nil
	}
	var fs []finding
	for _, d := range io.Devices {
		for _, l := range d.Limits {
			verb, rate, limit := limitFigures(l)
			fs = append(fs, check("cgroup", "saturation", ThreshIOLimit, ThreshIOLimit.Metric, l.UsedPercent,
				fmt.Sprintf("%s %s %s against a limit of %s in %s (%.0f%%): its I/O waits on the cgroup's throttle",
					d.Device, verb, rate, limit, l.Setting(), l.UsedPercent)))
		}
	}
	return fs
}

// limitFigures says a throttle limit and the cgroup's rate against it as
// an operator reads them: reads or writes, and bytes per second in binary
// units or I/Os per second. Both cgroup verdicts word a limit this way.
func limitFigures(l hostinfo.IOLimit) (verb, rate, limit string) {
	verb = "reads"
	if strings.HasPrefix(l.Kind, "write") {
		verb = "writes"
	}
	if strings.HasSuffix(l.Kind, "_bps") {
		return verb, figures.IEC(uint64(l.Rate)) + "/s", figures.IEC(l.Limit) + "/s"
	}
	return verb, fmt.Sprintf("%.1f I/Os/s", l.Rate), fmt.Sprintf("%d", l.Limit)
}

// scope says whose numbers from are: the cgroup's, or the whole host's when
// read at a hierarchy's root (a process at the root of the unified tree of
// a hybrid host), and so which resource a finding is filed under.
func scope(from []hostinfo.CgroupSource, hostResource string) (resource, where string) {
	for _, s := range from {
		if s.HostWide {
			return hostResource, "host-wide (read at the root cgroup, not this cgroup's own)"
		}
	}
	return "cgroup", "in this cgroup"
}
