package onboarding

import (
	"context"
	"fmt"
	"strings"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type healthDetails struct {
	Status         string               `json:"status" jsonschema:"healthy, warning, critical, or unknown"`
	Verdict        string               `json:"verdict"`
	TopSuspicions  []hostinfo.Suspicion `json:"top_suspicions"`
	FailedServices []string             `json:"failed_services,omitempty"`
}

// systemHealth is perf_info, perf_snapshot, perf_use_check and the failed
// services, in one short report.
func (s *Set) systemHealth(ctx context.Context, _ *tool.Call) (runOut, error) {
	out := runOut{Flow: "system_health"}
	det := healthDetails{Status: "unknown", TopSuspicions: []hostinfo.Suspicion{}}

	var info hostinfo.Info
	if msg, ok := s.callTool(ctx, "perf_info", map[string]any{}, &info); ok {
		sys := info.System
		out.Steps = append(out.Steps, step{"perf_info: what this host is", fmt.Sprintf("%s, Linux %s, %d CPUs, %s memory, %s",
			sys.Hostname, sys.Kernel, info.CPU.Threads, iec(info.Memory.TotalBytes), platform(info)), true})
	} else {
		out.Steps = append(out.Steps, step{"perf_info: what this host is", msg, false})
	}

	var snap hostinfo.PerfSnapshot
	if msg, ok := s.callTool(ctx, "perf_snapshot", map[string]any{"interval_ms": 500}, &snap); ok {
		out.Steps = append(out.Steps, step{"perf_snapshot: the host over 0.5 s", snapshotLine(snap), true})
	} else {
		out.Steps = append(out.Steps, step{"perf_snapshot: the host over 0.5 s", msg, false})
	}

	var use hostinfo.UseCheck
	if msg, ok := s.callTool(ctx, "perf_use_check", map[string]any{"interval_ms": 1000}, &use); ok {
		det.Status, det.Verdict, det.TopSuspicions = use.Summary.Status, use.Summary.Verdict, use.Summary.TopSuspicions
		out.Steps = append(out.Steps, step{"perf_use_check: utilisation, saturation and errors over 1 s", use.Summary.Verdict, true})
	} else {
		out.Steps = append(out.Steps, step{"perf_use_check: utilisation, saturation and errors over 1 s", msg, false})
	}

	var svc struct {
		Units []struct {
			Name string `json:"name"`
		} `json:"units"`
		Total int `json:"total"`
	}
	if msg, ok := s.callTool(ctx, "sys_services", map[string]any{"state": "failed"}, &svc); ok {
		for _, u := range svc.Units {
			det.FailedServices = append(det.FailedServices, u.Name)
		}
		res := "no failed services"
		if svc.Total > 0 {
			res = fmt.Sprintf("%d failed: %s", svc.Total, strings.Join(det.FailedServices, ", "))
		}
		out.Steps = append(out.Steps, step{"sys_services: failed units", res, true})
	} else {
		out.Steps = append(out.Steps, step{"sys_services: failed units", msg, false})
	}

	out.Summary = healthSummary(det)
	out.Details = det
	return out, nil
}

func healthSummary(d healthDetails) string {
	var b strings.Builder
	switch d.Status {
	case "unknown":
		b.WriteString("Health unknown: the USE check did not run.")
	default:
		fmt.Fprintf(&b, "%s: %s.", strings.ToUpper(d.Status[:1])+d.Status[1:], strings.TrimPrefix(d.Verdict, d.Status+": "))
	}
	for i, x := range d.TopSuspicions {
		if i == 3 {
			break
		}
		fmt.Fprintf(&b, " Suspect %s %s (%s %g, threshold %g).", x.Resource, x.Dimension, x.Metric, x.Value, x.Threshold)
	}
	if n := len(d.FailedServices); n > 0 {
		fmt.Fprintf(&b, " %d failed service(s).", n)
	}
	return b.String()
}

func platform(i hostinfo.Info) string {
	v := i.Virtualization.Type
	if v == "" || v == "none" {
		v = "bare metal"
	}
	return v + ", cgroup " + i.Virtualization.CgroupMode
}

func iec(n uint64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := uint64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// snapshotLine is the few numbers of a snapshot worth a first look: CPU,
// run queue, memory, the busiest disk and the retransmits.
func snapshotLine(p hostinfo.PerfSnapshot) string {
	line := fmt.Sprintf("CPU %.0f%% busy (iowait %.0f%%), run queue %.1f on %d CPUs, memory %.0f%% available, %.0f major faults/s",
		p.CPU.Utilization.Busy, p.CPU.Utilization.Iowait, p.CPU.RunQueue, p.CPU.Count, p.Memory.AvailablePercent, p.Memory.MajorFaults)
	var busiest *hostinfo.IODevice
	for i, d := range p.IO.Devices {
		if busiest == nil || d.Utilization > busiest.Utilization {
			busiest = &p.IO.Devices[i]
		}
	}
	if busiest != nil {
		line += fmt.Sprintf(", busiest disk %s %.0f%% utilised (await %.1f ms)", busiest.Name, busiest.Utilization, busiest.AvgWaitMS)
	}
	return line
}
