package health

import (
	"fmt"
	"strings"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// The checks of cgroups' own limits: a stall or a kill the host-wide
// figures show, caused by one cgroup's quota or limit rather than by the
// host running short. Each finding carries the reading it judged.

// throttles judges each cgroup whose CPU quota ran out during the interval,
// most throttled first.
func (j *judge) throttles() []finding {
	if j.s.Cgroups == nil {
		return nil
	}
	var out []finding
	for _, t := range j.s.Cgroups.CPUThrottled {
		f := check("cpu", "saturation", ThreshThrottled, ThreshThrottled.Metric, t.ThrottledPercent,
			fmt.Sprintf("cgroup %s held off the CPU by its quota of %.2f CPUs in %d of %d periods: throttled %.0f ms in the %.1f s interval%s",
				t.Cgroup, t.QuotaCPUs, t.ThrottledPeriods, t.Periods, t.ThrottledMS, j.seconds(), processes(t.Processes, false))).on(t.Cgroup)
		f.Cause = &Cause{Kind: CauseCPUQuota, Cgroup: t.Cgroup, Throttle: &t}
		out = append(out, f)
	}
	return out
}

// memoryLimits judges the fullest memory cgroups by their working set, the
// part of their use the kernel cannot simply drop: page cache at the limit
// is reclaimed, anonymous memory at the limit is killed.
func (j *judge) memoryLimits() []finding {
	if j.s.Cgroups == nil {
		return nil
	}
	var out []finding
	for _, m := range j.s.Cgroups.MemoryLimited {
		f := check("memory", "saturation", ThreshMemLimit, ThreshMemLimit.Metric, m.WorkingSetPercent,
			fmt.Sprintf("cgroup %s at %.0f%% of its %s memory limit (working set %s; %s with page cache)%s",
				m.Cgroup, m.WorkingSetPercent, figures.IEC(m.LimitBytes), figures.IEC(m.WorkingSetBytes), figures.IEC(m.UsageBytes), processes(m.Processes, true))).on(m.Cgroup)
		f.Cause = &Cause{Kind: CauseMemoryLimit, Cgroup: m.Cgroup, Memory: &m}
		out = append(out, f)
	}
	return out
}

// oomKills judges the interval's OOM kills (any is critical) and names the
// victims and the cgroup whose limit killed them, from the kernel log; the
// memory cgroups' own counters name the cgroup where the log was not read.
func (j *judge) oomKills() finding {
	m := j.s.Memory
	f := check("memory", "errors", ThreshOOMKills, ThreshOOMKills.Metric, float64(m.OOMKills),
		fmt.Sprintf("%d OOM kills during the interval (%d since boot)", m.OOMKills, m.OOMKillsBoot))
	if m.OOMKills == 0 {
		return f
	}
	var limited []hostinfo.MemoryLimitedCgroup
	if j.s.Cgroups != nil {
		for _, c := range j.s.Cgroups.MemoryLimited {
			if c.OOMKills > 0 {
				limited = append(limited, c)
			}
		}
	}
	if len(m.OOMVictims) == 0 {
		if len(limited) == 0 {
			f.Detail += "; the kernel log, which names the victims, was not read"
			return f
		}
		c := limited[0]
		f.Detail += fmt.Sprintf(": %d in cgroup %s at its %s memory limit (the kernel log, which names the victims, was not read)",
			c.OOMKills, c.Cgroup, figures.IEC(c.LimitBytes))
		f.Cause = &Cause{Kind: CauseOOMKill, Cgroup: c.Cgroup, Memory: &c}
		return f
	}
	var names []string
	limit := m.OOMVictims[0].LimitCgroup
	for _, v := range m.OOMVictims {
		where := "the host ran out of memory"
		if v.LimitCgroup != "" {
			where = "the memory limit of cgroup " + v.LimitCgroup
		}
		names = append(names, fmt.Sprintf("pid %d (%s) in memory cgroup %s, killed at %s", v.PID, v.Comm, v.Cgroup, where))
		if v.LimitCgroup != limit {
			limit = ""
		}
	}
	f.Detail += ": " + strings.Join(names[:min(len(names), 3)], "; ")
	if limit != "" { // one cgroup's limit killed them all: that limit is the cause
		f.Cause = &Cause{Kind: CauseOOMKill, Cgroup: limit, Victims: m.OOMVictims}
		for _, c := range limited {
			if c.Cgroup == limit {
				f.Cause.Memory = &c
				f.Detail += fmt.Sprintf(" (limit %s)", figures.IEC(c.LimitBytes))
			}
		}
	}
	return f
}

// ioLimits judges each cgroup's block I/O rate against its limit on that
// device: at its limit, the cgroup's I/O waits for the throttle, not for
// the disk.
func (j *judge) ioLimits() []finding {
	if j.s.Cgroups == nil {
		return nil
	}
	busy := map[string]float64{}
	for _, d := range j.s.IO.Devices {
		busy[d.Name] = d.Utilization
	}
	var out []finding
	for _, l := range j.s.Cgroups.IOLimited {
		lim := l.Nearest()
		verb, rate, limit := limitFigures(lim)
		f := check("disk", "saturation", ThreshIOLimit, ThreshIOLimit.Metric, l.LimitUsedPercent,
			fmt.Sprintf("cgroup %s %s %s on %s, %.0f%% of its limit of %s (%s): the limit paces its I/O, not the disk (%s %.0f%% busy)%s",
				l.Cgroup, verb, rate, l.Device, l.LimitUsedPercent, limit, lim.Setting(), l.Device, busy[l.Device], processes(l.Processes, false))).on(l.Cgroup + " on " + l.Device)
		f.Cause = &Cause{Kind: CauseIOLimit, Cgroup: l.Cgroup, IO: &l}
		out = append(out, f)
	}
	return out
}

// processes names a cgroup's processes for a detail line.
func processes(ps []hostinfo.CgroupProcess, byRSS bool) string {
	if len(ps) == 0 {
		return ""
	}
	var parts []string
	for _, p := range ps[:min(len(ps), 3)] {
		if byRSS {
			parts = append(parts, fmt.Sprintf("pid %d (%s) %s", p.PID, p.Comm, figures.IEC(p.RSSBytes)))
		} else {
			parts = append(parts, fmt.Sprintf("pid %d (%s) %.1f s CPU", p.PID, p.Comm, p.CPUSeconds))
		}
	}
	return "; processes: " + strings.Join(parts, ", ")
}
