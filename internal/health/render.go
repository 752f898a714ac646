package health

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// The text report's limits: suspicions and disks listed before "... more".
const (
	textSuspicions = 5
	textDisks      = 6
)

// WriteText renders the report for a person, verdict first: the verdict
// and its suspicions with their evidence, then the resources, the cgroups
// whose limits held processes back, services and logs, the platform, and
// what could not be read.
func (r *Report) WriteText(w io.Writer) error {
	p := &printer{w: w}
	r.header(p)
	r.verdict(p)
	r.baseline(p)
	r.resources(p)
	r.limited(p)
	if r.Services != nil {
		p.line("Services  %s", r.Services.line())
	}
	if r.Logs != nil {
		p.line("Logs      %s", r.Logs.line())
	}
	r.platform(p)
	for _, s := range r.Problems {
		p.line("Problem   %s", s)
	}
	for _, s := range r.Warnings {
		p.line("Note      %s", s)
	}
	return p.err
}

// Text is WriteText into a string.
func (r *Report) Text() string {
	var b strings.Builder
	_ = r.WriteText(&b)
	return b.String()
}

// Status is the verdict's status word, or "unknown" when the snapshot could
// not be judged.
func (r *Report) Status() string {
	if r.Use == nil {
		return "unknown"
	}
	return r.Use.Summary.Status
}

// Summary is the report in one paragraph: the verdict, the first
// suspicions with their figures, failed services and log errors.
func (r *Report) Summary() string {
	var b strings.Builder
	if r.Use == nil {
		b.WriteString("Health unknown: the snapshot could not be taken.")
	} else {
		s := r.Use.Summary
		fmt.Fprintf(&b, "%s: %s.", strings.ToUpper(s.Status[:1])+s.Status[1:], strings.TrimPrefix(s.Verdict, s.Status+": "))
		for i, x := range s.TopSuspicions {
			if i == 3 {
				break
			}
			fmt.Fprintf(&b, " Suspect %s %s (%s %g, threshold %g).", x.Resource, x.Dimension, x.Metric, x.Value, x.Threshold)
		}
	}
	if r.Baseline != nil {
		b.WriteString(r.Baseline.sentence())
	}
	if r.Services != nil && r.Services.Total > 0 {
		fmt.Fprintf(&b, " %d failed service(s).", r.Services.Total)
	}
	if r.Logs != nil && r.Logs.Count > 0 {
		fmt.Fprintf(&b, " %d log error(s) in the last hour.", r.Logs.Count)
	}
	return b.String()
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) line(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format+"\n", args...)
	}
}

func (r *Report) header(p *printer) {
	if r.Info == nil {
		p.line("%s", r.Title)
		return
	}
	s := r.Info.System
	up := (time.Duration(s.UptimeSeconds) * time.Second).Round(time.Minute)
	p.line("%s: %s (Linux %s, %s), up %s", r.Title, s.Hostname, s.Kernel, s.Arch, up)
}

// verdict states the worst finding first, so the first lines are the
// answer, with the interval it was measured over.
func (r *Report) verdict(p *printer) {
	if r.Use == nil {
		p.line("Verdict   unknown: the snapshot could not be taken")
		return
	}
	s := r.Use.Summary
	if s.Status == StatusHealthy {
		p.line("Verdict   %s (over %s)", s.Verdict, seconds(r.Use.IntervalMS))
		return
	}
	p.line("Verdict   %s: %s (over %s)", strings.ToUpper(s.Status), strings.TrimPrefix(s.Verdict, s.Status+": "), seconds(r.Use.IntervalMS))
	for i, x := range s.TopSuspicions {
		if i == textSuspicions {
			p.line("Suspect   ... %d more (hostmcp call perf_use_check)", len(s.TopSuspicions)-i)
			break
		}
		p.line("Suspect   %s %s %s: %s %g %s %g (%s)", x.Severity, x.Resource, x.Dimension, x.Metric, x.Value, x.Comparison, x.Threshold, x.Detail)
	}
}

func seconds(ms int64) string { return fmt.Sprintf("%.1f s", float64(ms)/1000) }

func (r *Report) resources(p *printer) {
	snap := r.Snapshot
	if snap == nil {
		return
	}
	c := snap.CPU
	model := ""
	if r.Info != nil {
		model = " (" + r.Info.CPU.Model + ")"
	}
	psi := ""
	if snap.Pressure != nil {
		psi = fmt.Sprintf("; stalled %.1f%% of the interval (PSI some; avg10 %.1f%%)", snap.Pressure.CPU.SomePercent, snap.Pressure.CPU.SomeAvg10)
	}
	p.line("CPU       %.0f%% busy of %d CPUs%s; load %.2f %.2f %.2f; run queue %.1f%s",
		c.Utilization.Busy, c.Count, model, c.LoadAvg[0], c.LoadAvg[1], c.LoadAvg[2], c.RunQueue, psi)
	m := snap.Memory
	p.line("Memory    %s used of %s, %s available; swap %s of %s",
		figures.IEC(m.UsedBytes), figures.IEC(m.TotalBytes), figures.IEC(m.AvailableBytes), figures.IEC(m.SwapUsedBytes), figures.IEC(m.SwapTotalBytes))
	disks := slices.Clone(snap.Filesystems)
	slices.SortStableFunc(disks, func(a, b hostinfo.FilesystemUse) int { return cmp.Compare(b.UsedPercent, a.UsedPercent) })
	for i, d := range disks {
		label := ""
		if i == 0 {
			label = "Disks"
		}
		if i == textDisks {
			p.line("%-9s (%d more)", label, len(disks)-i)
			break
		}
		p.line("%-9s %-20s %3.0f%% of %s (%s, %s)", label, d.Mount, d.UsedPercent, figures.IEC(d.TotalBytes), d.FSType, d.Device)
	}
}

// limited lists the cgroups whose own limits held processes back.
func (r *Report) limited(p *printer) {
	if r.Snapshot == nil || r.Snapshot.Cgroups == nil {
		return
	}
	c := r.Snapshot.Cgroups
	var lines []string
	for _, t := range c.CPUThrottled {
		lines = append(lines, fmt.Sprintf("%s throttled %.0f ms by its %.2f CPU quota (%d of %d periods)", t.Cgroup, t.ThrottledMS, t.QuotaCPUs, t.ThrottledPeriods, t.Periods))
	}
	for _, m := range c.MemoryLimited {
		if m.OOMKills > 0 || m.WorkingSetPercent > ThreshMemLimit.Warn {
			lines = append(lines, fmt.Sprintf("%s at %.0f%% of its %s memory limit, %d OOM kills", m.Cgroup, m.WorkingSetPercent, figures.IEC(m.LimitBytes), m.OOMKills))
		}
	}
	for _, l := range c.IOLimited {
		if l.LimitUsedPercent > ThreshIOLimit.Warn {
			lines = append(lines, fmt.Sprintf("%s at %.0f%% of its %s limit on %s", l.Cgroup, l.LimitUsedPercent, l.Limit, l.Device))
		}
	}
	for i, l := range lines {
		label := ""
		if i == 0 {
			label = "Limited"
		}
		p.line("%-9s %s", label, l)
	}
}

func (r *Report) platform(p *printer) {
	if r.Info == nil {
		return
	}
	v, c := r.Info.Virtualization, r.Info.Capabilities
	cg := v.CgroupMode
	if v.Cgroup2Mount != "" {
		cg += " (cgroup2 at " + v.Cgroup2Mount + ")"
	}
	where, _, _ := strings.Cut(platform(r.Info), ",")
	p.line("Platform  %s; cgroup %s", where, cg)
	perf := "no"
	if c.PerfAvailable {
		perf = fmt.Sprintf("yes (permitted %s, paranoid %d)", yesNo(c.PerfPermitted), c.PerfEventParanoid)
	}
	tracefs := "not mounted"
	if c.TracefsMounted {
		tracefs = "at " + c.TracefsPath
	}
	p.line("Can use   perf %s; eBPF %s; BTF %s; bpftrace %s; PSI %s; tracefs %s",
		perf, yesNo(c.BPFAvailable), yesNo(c.BTFAvailable), yesNo(c.BpftraceAvailable), yesNo(c.PSIEnabled), tracefs)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// snapshotLine is the few numbers of a snapshot worth a first look: CPU,
// run queue, memory, the busiest disk.
func snapshotLine(s *hostinfo.PerfSnapshot) string {
	line := fmt.Sprintf("CPU %.0f%% busy (iowait %.0f%%), run queue %.1f on %d CPUs, memory %.0f%% available, %.0f major faults/s",
		s.CPU.Utilization.Busy, s.CPU.Utilization.Iowait, s.CPU.RunQueue, s.CPU.Count, s.Memory.AvailablePercent, s.Memory.MajorFaults)
	var busiest *hostinfo.IODevice
	for i, d := range s.IO.Devices {
		if busiest == nil || d.Utilization > busiest.Utilization {
			busiest = &s.IO.Devices[i]
		}
	}
	if busiest != nil {
		line += fmt.Sprintf(", busiest disk %s %.0f%% utilised (await %.1f ms)", busiest.Name, busiest.Utilization, busiest.AvgWaitMS)
	}
	return line
}

// line says what the services step found.
func (s *Services) line() string {
	if s.Unread != "" {
		return "not read: " + s.Unread
	}
	if s.Total == 0 {
		return "no failed services"
	}
	return fmt.Sprintf("%d failed: %s", s.Total, strings.Join(s.Failed, ", "))
}

// line says what the log step found.
func (l *LogErrors) line() string {
	if l.Unread != "" {
		return "not read: " + l.Unread
	}
	if l.Count == 0 {
		return fmt.Sprintf("no errors in the %s log", l.Source)
	}
	more := ""
	if l.More {
		more = " or more"
	}
	return fmt.Sprintf("%d%s errors in the %s log; newest: %s", l.Count, more, l.Source, l.Newest[0])
}
