package onboarding

import (
	"context"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type healthDetails struct {
	Status         string             `json:"status" jsonschema:"healthy, warning, critical, or unknown when the snapshot could not be taken"`
	Verdict        string             `json:"verdict"`
	IntervalMS     int64              `json:"interval_ms,omitempty" jsonschema:"the interval the verdict's figures were measured over"`
	TopSuspicions  []health.Suspicion `json:"top_suspicions"`
	FailedServices []string           `json:"failed_services,omitempty"`
	LogErrors      int                `json:"log_errors,omitempty" jsonschema:"log entries of priority err or worse in the last hour, when sys_logs is enabled"`
	RecentErrors   []string           `json:"recent_errors,omitempty" jsonschema:"the newest of them, with their time and source"`
	Report         string             `json:"report" jsonschema:"the whole report as text, as hostmcp triage prints it"`
}

// systemHealth is the health report hostmcp triage prints (see
// health.Collect): perf_info, perf_snapshot judged with the USE check's
// thresholds, the failed services and, where the operator enabled
// sys_logs, the last hour's errors. The tools are called through the
// call's own Caller, so they run as a client's calls do.
func (s *Set) systemHealth(ctx context.Context, call *tool.Call) (runOut, error) {
	r := health.Collect(ctx, call.Tools(), "system_health")
	out := runOut{Flow: "system_health", Summary: r.Summary()}
	for _, st := range r.Steps {
		out.Steps = append(out.Steps, step(st))
	}
	det := healthDetails{Status: r.Status(), TopSuspicions: []health.Suspicion{}, Report: r.Text()}
	if r.Use != nil {
		det.Verdict, det.IntervalMS, det.TopSuspicions = r.Use.Summary.Verdict, r.Use.IntervalMS, r.Use.Summary.TopSuspicions
	}
	if r.Services != nil {
		det.FailedServices = r.Services.Failed
	}
	if r.Logs != nil {
		det.LogErrors, det.RecentErrors = r.Logs.Count, r.Logs.Newest
	}
	out.Details = det
	return out, nil
}
