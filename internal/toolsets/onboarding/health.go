package onboarding

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/num"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type healthDetails struct {
	Status         string             `json:"status" jsonschema:"healthy, warning, critical, or unknown"`
	Verdict        string             `json:"verdict"`
	TopSuspicions  []health.Suspicion `json:"top_suspicions"`
	FailedServices []string           `json:"failed_services,omitempty"`
	LogErrors      int                `json:"log_errors,omitempty" jsonschema:"log entries of priority err or worse in the last hour, when sys_logs is enabled"`
	RecentErrors   []string           `json:"recent_errors,omitempty" jsonschema:"the newest of them, with their time and source"`
}

// errorWords finds errors in log files, whose lines have no priority.
const errorWords = `\b(error|errors|fail|failed|failure|fatal|panic|critical|segfault|oom|out of memory|i/o error)\b`

// healthLogErrors is how many of the last hour's errors the report quotes.
const healthLogErrors = 5

// systemHealth is perf_info, perf_snapshot, perf_use_check, the failed
// services and, where the operator enabled sys_logs, the last hour's
// errors, in one short report.
func (s *Set) systemHealth(ctx context.Context, _ *tool.Call) (runOut, error) {
	out := runOut{Flow: "system_health"}
	det := healthDetails{Status: "unknown", TopSuspicions: []health.Suspicion{}}

	var info hostinfo.Info
	if msg, ok := s.callTool(ctx, "perf_info", map[string]any{}, &info); ok {
		sys := info.System
		out.Steps = append(out.Steps, step{"perf_info: what this host is", fmt.Sprintf("%s, Linux %s, %d CPUs, %s memory, %s",
			sys.Hostname, sys.Kernel, info.CPU.Threads, num.IEC(info.Memory.TotalBytes), platform(info)), true})
	} else {
		out.Steps = append(out.Steps, step{"perf_info: what this host is", msg, false})
	}

	var snap hostinfo.PerfSnapshot
	if msg, ok := s.callTool(ctx, "perf_snapshot", map[string]any{"interval_ms": 500}, &snap); ok {
		out.Steps = append(out.Steps, step{"perf_snapshot: the host over 0.5 s", snapshotLine(snap), true})
	} else {
		out.Steps = append(out.Steps, step{"perf_snapshot: the host over 0.5 s", msg, false})
	}

	var use health.UseCheck
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

	if s.deps.Calls.Serves("sys_logs") {
		out.Steps = append(out.Steps, s.logErrors(ctx, &det))
	}

	out.Summary = healthSummary(det)
	out.Details = det
	return out, nil
}

// logErrors asks sys_logs for the last hour's entries of priority err and
// worse: an OOM kill, a disk error or a crashing service explains a
// verdict the counters only hint at.
func (s *Set) logErrors(ctx context.Context, det *healthDetails) step {
	const what = "sys_logs: errors in the last hour"
	var logs struct {
		Source  string `json:"source"`
		Entries []struct {
			Time       string `json:"time"`
			Identifier string `json:"identifier"`
			Unit       string `json:"unit"`
			Message    string `json:"message"`
		} `json:"entries"`
		Truncated bool `json:"truncated"`
	}
	args := map[string]any{"priority": "err", "since": "1h", "lines": 100}
	if msg, ok := s.callTool(ctx, "sys_logs", args, &logs); !ok {
		return step{what, msg, false}
	}
	if logs.Source == "file" { // plain log lines carry no priority: look for the words instead
		args["grep"] = errorWords
		delete(args, "priority")
		if msg, ok := s.callTool(ctx, "sys_logs", args, &logs); !ok {
			return step{what, msg, false}
		}
	}
	det.LogErrors = len(logs.Entries)
	for i := len(logs.Entries) - 1; i >= 0 && len(det.RecentErrors) < healthLogErrors; i-- {
		e := logs.Entries[i]
		det.RecentErrors = append(det.RecentErrors, fmt.Sprintf("%s %s: %s", e.Time, cmp.Or(e.Unit, e.Identifier, logs.Source), e.Message))
	}
	more := ""
	if logs.Truncated {
		more = " or more"
	}
	if det.LogErrors == 0 {
		return step{what, fmt.Sprintf("no errors in the %s log", logs.Source), true}
	}
	return step{what, fmt.Sprintf("%d%s errors in the %s log; newest: %s", det.LogErrors, more, logs.Source, det.RecentErrors[0]), true}
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
	if d.LogErrors > 0 {
		fmt.Fprintf(&b, " %d log error(s) in the last hour.", d.LogErrors)
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
