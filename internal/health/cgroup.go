package health

import (
	"fmt"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/num"
)

// CgroupCheck is perf_cgroup_summary's answer: the reading and its verdict.
type CgroupCheck struct {
	hostinfo.CgroupSummary
	Summary UseSummary `json:"summary"`
}

// AnalyzeCgroup judges perf_cgroup_summary's reading: the cgroup's
// throttling, limits and its own pressure over the interval.
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
				fmt.Sprintf("memory %s of its %s limit (%.0f%%)", num.IEC(m.CurrentBytes), num.IEC(*m.LimitBytes), m.LimitPercent)))
		}
		f := check("cgroup", "errors", ThreshCgroupOOM, ThreshCgroupOOM.Metric, float64(m.OOMKills),
			fmt.Sprintf("%d processes OOM-killed in this cgroup", m.OOMKills))
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
	if p := s.PressureWindow; p != nil { // the cgroup's own files; the host's pressure is never judged as its
		secs := float64(s.IntervalMS) / 1000
		for _, r := range []struct {
			name string
			w    *hostinfo.PSIWindow
		}{{"cpu", p.CPU}, {"memory", p.Memory}, {"io", p.IO}} {
			if r.w == nil {
				continue
			}
			fs = append(fs, check("cgroup", "saturation", ThreshPSISome, fmt.Sprintf(ThreshPSISome.Metric, r.name), r.w.SomePercent,
				fmt.Sprintf("PSI %s some %.1f%% of the %.1f s interval in this cgroup (avg10 %.1f%%)", r.name, r.w.SomePercent, secs, r.w.SomeAvg10)))
			if r.name != "cpu" || r.w.FullTotalUS > 0 { // a cgroup's cpu full is meaningful (5.13+), the host's is not
				fs = append(fs, check("cgroup", "saturation", ThreshPSIFull, fmt.Sprintf(ThreshPSIFull.Metric, r.name), r.w.FullPercent,
					fmt.Sprintf("PSI %s full %.1f%% of the %.1f s interval in this cgroup (avg10 %.1f%%)", r.name, r.w.FullPercent, secs, r.w.FullAvg10)))
			}
		}
	}
	return summarize(fs)
}
