package triage

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/num"
)

func (r *Report) header(p *printer) {
	if r.Info == nil {
		p.line("hostmcp triage")
		return
	}
	s := r.Info.System
	up := (time.Duration(s.UptimeSeconds) * time.Second).Round(time.Minute)
	p.line("hostmcp triage: %s (Linux %s, %s), up %s", s.Hostname, s.Kernel, s.Arch, up)
}

// Thresholds for the verdict, from spec 000 appendix B.
const (
	cpuWarn, cpuCrit   = 70.0, 90.0
	memWarn, memCrit   = 80.0, 90.0 // used share: available below 20% / 10%
	diskWarn, diskCrit = 85.0, 95.0
)

// verdict states the worst finding first, so the first lines are the
// answer: the USE check's verdict with its top suspicions and their
// evidence, joined by what only the snapshot sees (full filesystems, swap).
func (r *Report) verdict(p *printer) {
	snap := r.Snapshot
	if snap == nil && r.Use == nil {
		p.line("Verdict   unknown: the snapshot failed")
		return
	}
	var crit, warn []string
	if u := r.Use; u != nil {
		v := strings.TrimPrefix(u.Summary.Verdict, u.Summary.Status+": ") // the line says the status already
		switch u.Summary.Status {
		case "critical":
			crit = append(crit, v)
		case "warning":
			warn = append(warn, v)
		}
	}
	if snap != nil {
		crit, warn = r.snapshotFindings(crit, warn)
	}
	switch {
	case len(crit) > 0:
		p.line("Verdict   CRITICAL: %s", strings.Join(append(crit, warn...), "; "))
	case len(warn) > 0:
		p.line("Verdict   WARNING: %s", strings.Join(warn, "; "))
	default:
		p.line("Verdict   healthy: no resource over its warning threshold")
	}
	if r.Use != nil {
		for i, x := range r.Use.Summary.TopSuspicions {
			if i == 5 {
				p.line("Suspect   ... %d more (hostmcp call perf_use_check)", len(r.Use.Summary.TopSuspicions)-i)
				break
			}
			p.line("Suspect   %s %s %s: %s %g %s %g (%s)", x.Severity, x.Resource, x.Dimension, x.Metric, x.Value, x.Comparison, x.Threshold, x.Detail)
		}
	}
}

// snapshotFindings adds what the USE check does not judge: filesystems and
// swap, and, without a USE check, CPU, load and memory from the snapshot.
func (r *Report) snapshotFindings(crit, warn []string) ([]string, []string) {
	snap := r.Snapshot
	judge := func(v, w, c float64, msg string) {
		switch {
		case v > c:
			crit = append(crit, msg)
		case v > w:
			warn = append(warn, msg)
		}
	}
	if r.Use == nil {
		judge(snap.CPUPercent, cpuWarn, cpuCrit, fmt.Sprintf("CPU busy %.0f%%", snap.CPUPercent))
		if threads := r.threads(); threads > 0 {
			judge(snap.LoadAvg[0]/float64(threads)*100, 100, 200, fmt.Sprintf("load %.2f on %d CPUs", snap.LoadAvg[0], threads))
		}
		if snap.MemTotalBytes > 0 {
			used := float64(snap.MemUsedBytes) / float64(snap.MemTotalBytes) * 100
			judge(used, memWarn, memCrit, fmt.Sprintf("memory %.0f%% used", used))
		}
	}
	if snap.SwapUsedBytes > 0 {
		warn = append(warn, fmt.Sprintf("swap in use (%s)", num.IEC(snap.SwapUsedBytes)))
	}
	for _, d := range snap.Disks {
		judge(d.UsedPercent, diskWarn, diskCrit, fmt.Sprintf("%s %.0f%% full", d.Mount, d.UsedPercent))
		judge(d.InodesUsedPercent, diskWarn, diskCrit, fmt.Sprintf("%s inodes %.0f%% used", d.Mount, d.InodesUsedPercent))
	}
	return crit, warn
}

func (r *Report) threads() int {
	if r.Info == nil {
		return 0
	}
	return r.Info.CPU.Threads
}

func (r *Report) resources(p *printer) {
	snap := r.Snapshot
	if snap == nil {
		return
	}
	model := ""
	if r.Info != nil {
		model = fmt.Sprintf(" of %d CPUs (%s)", r.Info.CPU.Threads, r.Info.CPU.Model)
	}
	p.line("CPU       %.0f%% busy%s; load %.2f %.2f %.2f; %d runnable of %d tasks",
		snap.CPUPercent, model, snap.LoadAvg[0], snap.LoadAvg[1], snap.LoadAvg[2], snap.TasksRunnable, snap.TasksTotal)
	p.line("Memory    %s used of %s, %s available; swap %s of %s",
		num.IEC(snap.MemUsedBytes), num.IEC(snap.MemTotalBytes), num.IEC(snap.MemAvailableBytes),
		num.IEC(snap.SwapUsedBytes), num.IEC(snap.SwapTotalBytes))
	disks := append(snap.Disks[:0:0], snap.Disks...)
	sort.Slice(disks, func(i, j int) bool { return disks[i].UsedPercent > disks[j].UsedPercent })
	for i, d := range disks {
		label := "Disks"
		if i > 0 {
			label = ""
		}
		if i == 6 {
			p.line("%-9s (%d more)", label, len(disks)-i)
			break
		}
		p.line("%-9s %-20s %3.0f%% of %s (%s, %s)", label, d.Mount, d.UsedPercent, num.IEC(d.TotalBytes), d.FSType, d.Device)
	}
}

func (r *Report) platform(p *printer) {
	if r.Info == nil {
		return
	}
	v, c := r.Info.Virtualization, r.Info.Capabilities
	where := v.Type
	if v.Container && v.VM != "" && v.VM != "none" {
		where += " on " + v.VM
	}
	cg := v.CgroupMode
	if v.Cgroup2Mount != "" {
		cg += " (cgroup2 at " + v.Cgroup2Mount + ")"
	}
	p.line("Platform  %s; cgroup %s", where, cg)
	perf := "no"
	if c.PerfAvailable {
		perf = fmt.Sprintf("yes (permitted %s, paranoid %d)", yesNo(c.PerfPermitted), c.PerfEventParanoid)
	}
	p.line("Can use   perf %s; eBPF %s; BTF %s; bpftrace %s; PSI %s; tracefs %s",
		perf, yesNo(c.BPFAvailable), yesNo(c.BTFAvailable), yesNo(c.BpftraceAvailable), yesNo(c.PSIEnabled), mounted(c.TracefsMounted, c.TracefsPath))
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func mounted(ok bool, path string) string {
	if !ok {
		return "not mounted"
	}
	return "at " + path
}
