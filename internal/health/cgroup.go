package health

import (
	"fmt"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/num"
)

// Cgroup thresholds. Appendix B has none for throttling or limits; these
// mirror its shape: memory near the limit like available memory below
// 20%/10%, and throttling in more than 5%/25% of periods.
var (
	ThreshThrottled = Threshold{Metric: "cpu_throttled_percent", Warn: 5, Crit: 25}
	ThreshMemLimit  = Threshold{Metric: "memory_limit_used_percent", Warn: 80, Crit: 90}
	ThreshCgroupOOM = Threshold{Metric: "oom_kills", Warn: 0, Crit: 0}
	ThreshPIDsLimit = Threshold{Metric: "pids_limit_used_percent", Warn: 80, Crit: 90}
)

// CgroupCheck is perf_cgroup_summary's answer: the reading and its verdict.
type CgroupCheck struct {
	hostinfo.CgroupSummary
	Summary UseSummary `json:"summary"`
}

// AnalyzeCgroup judges perf_cgroup_summary's reading: the cgroup's
// throttling, limits and pressure.
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
	if p := s.Pressure; p != nil {
		for _, r := range []struct {
			name string
			st   *hostinfo.PSIStats
		}{{"cpu", p.CPU}, {"memory", p.Memory}, {"io", p.IO}} {
			if r.st == nil {
				continue
			}
			fs = append(fs, check("cgroup", "saturation", ThreshPSISome, fmt.Sprintf(ThreshPSISome.Metric, r.name), r.st.Some.Avg10,
				fmt.Sprintf("PSI %s some avg10 %.1f%% in this cgroup", r.name, r.st.Some.Avg10)))
			if r.st.Full != nil {
				fs = append(fs, check("cgroup", "saturation", ThreshPSIFull, fmt.Sprintf(ThreshPSIFull.Metric, r.name), r.st.Full.Avg10,
					fmt.Sprintf("PSI %s full avg10 %.1f%% in this cgroup", r.name, r.st.Full.Avg10)))
			}
		}
	}
	return summarize(fs)
}
