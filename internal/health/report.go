package health

import (
	"cmp"
	"context"
	"fmt"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Report is a host's health report: what `hostmcp triage` prints and the
// system_health flow answers. It is built from the tools an agent calls
// (perf_info, perf_snapshot, sys_services and, where the operator serves
// it, sys_logs) and judged here with AnalyzeUSE, so the report, its
// resource lines and the tools cannot disagree.
type Report struct {
	Title    string
	Info     *hostinfo.Info
	Snapshot *hostinfo.PerfSnapshot
	Use      *UseCheck // the snapshot judged; nil when it failed
	// Services are the failed units, when sys_services answered.
	Services *Services
	// Logs are the last hour's errors, when sys_logs is served and answered.
	Logs *LogErrors
	// Baseline is what changed since the baseline compared with, when one
	// was; NoBaseline says why none was.
	Baseline   *Comparison
	NoBaseline string
	// Steps are the tools called and what each gave, in order.
	Steps []Step
	// Problems are the tools the report cannot do without (perf_info,
	// perf_snapshot) that failed, and why.
	Problems []string
	Warnings []string
}

// Step is one tool the report called and what came of it.
type Step struct {
	Description string `json:"description"`
	Result      string `json:"result"`
	OK          bool   `json:"ok" jsonschema:"false when the step failed or could not run here"`
}

// Services are the units systemd reports failed.
type Services struct {
	Failed []string
	Total  int
	Unread string // why sys_services did not answer (no systemd here...)
}

// LogErrors are log entries of priority err or worse in the last hour (in
// plain log files, which carry no priority, lines with error words).
type LogErrors struct {
	Source string   // journal, file or kernel
	Count  int      // entries read (at most the 100 asked for)
	More   bool     // there were more than were read
	Newest []string // the newest, with their time and source, newest first
	Unread string   // why sys_logs did not answer
}

// reportInterval is how long perf_snapshot samples for the report.
const reportInterval = 1000

// newestLogErrors is how many of the last hour's errors the report quotes.
const newestLogErrors = 5

// errorWords finds errors in log files, whose lines have no priority.
const errorWords = `\b(error|errors|fail|failed|failure|fatal|panic|critical|segfault|oom|out of memory|i/o error)\b`

// CollectOptions are Collect's choices; nil means none.
type CollectOptions struct {
	// CompareTo is the baseline perf_snapshot compares the host with;
	// empty compares with none, and NoBaseline says why.
	CompareTo  string
	NoBaseline string
}

// Collect calls the tools the report is built from, through c, which runs
// them as a client's calls are run. A tool that fails is a step that says
// so, and the report goes on: a partial report still helps.
func Collect(ctx context.Context, c tool.Caller, title string) *Report {
	return CollectWith(ctx, c, title, nil)
}

// CollectWith is Collect with options.
func CollectWith(ctx context.Context, c tool.Caller, title string, o *CollectOptions) *Report {
	if o == nil {
		o = &CollectOptions{}
	}
	r := &Report{Title: title, NoBaseline: o.NoBaseline}
	// serves reports whether c serves a tool, or def when it cannot tell:
	// sys_logs is off by default (logs hold secrets) and only asked for
	// where the operator served it.
	serves := func(name string, def bool) bool {
		if s, ok := c.(interface{ Serves(string) bool }); ok {
			return s.Serves(name)
		}
		return def
	}

	const infoStep = "perf_info: what this host is"
	if info, msg := call[hostinfo.Info](ctx, c, "perf_info", nil, r); info != nil {
		r.Info = info
		r.step(infoStep, fmt.Sprintf("%s, Linux %s, %d CPUs, %s", info.System.Hostname, info.System.Kernel, info.CPU.Threads, platform(info)), true)
	} else {
		r.Problems = append(r.Problems, msg)
		r.step(infoStep, msg, false)
	}

	snapStep := fmt.Sprintf("perf_snapshot: the host over %.1f s", float64(reportInterval)/1000)
	if snap, msg := r.snapshot(ctx, c, o.CompareTo); snap != nil {
		r.Snapshot = snap
		use := AnalyzeUSE(*snap)
		r.Use = &use
		r.step(snapStep, snapshotLine(snap), true)
		r.step("USE check of that interval (perf_use_check's thresholds)", use.Summary.Verdict, true)
	} else {
		r.Problems = append(r.Problems, msg)
		r.step(snapStep, msg, false)
		r.step("USE check of that interval (perf_use_check's thresholds)", "not judged: perf_snapshot failed", false)
	}

	if serves("sys_services", true) {
		r.services(ctx, c)
	}
	if serves("sys_logs", false) {
		r.logs(ctx, c)
	}
	return r
}

// snapshot calls perf_snapshot, comparing with the baseline named
// compareTo when there is one; if the comparison fails, the snapshot is
// taken without it and the report says why.
func (r *Report) snapshot(ctx context.Context, c tool.Caller, compareTo string) (*hostinfo.PerfSnapshot, string) {
	type snapshotOut struct {
		hostinfo.PerfSnapshot
		Baseline *BaselineResult `json:"baseline"`
	}
	args := map[string]any{"interval_ms": reportInterval}
	if compareTo != "" {
		args["compare_to"] = compareTo
		out, msg := call[snapshotOut](ctx, c, "perf_snapshot", args, r)
		if out != nil && out.Baseline != nil && out.Baseline.Compared != nil {
			r.Baseline = out.Baseline.Compared
			return &out.PerfSnapshot, ""
		}
		r.NoBaseline = fmt.Sprintf("comparing with baseline %q failed: %s", compareTo, msg)
		delete(args, "compare_to")
	}
	out, msg := call[snapshotOut](ctx, c, "perf_snapshot", args, r)
	if out == nil {
		return nil, msg
	}
	return &out.PerfSnapshot, ""
}

func (r *Report) step(description, result string, ok bool) {
	r.Steps = append(r.Steps, Step{description, result, ok})
}

// call runs a tool and decodes its data (tool.CallFor). A failure comes
// back as a message naming the tool; the tool's warnings go to the report.
func call[T any](ctx context.Context, c tool.Caller, name string, args map[string]any, r *Report) (*T, string) {
	v, warnings, err := tool.CallFor[T](ctx, c, name, args)
	for _, w := range warnings {
		r.Warnings = append(r.Warnings, name+": "+w)
	}
	if err != nil {
		return nil, err.Error()
	}
	return v, ""
}

// services asks sys_services for the failed units; on a host without
// systemd the step says so.
func (r *Report) services(ctx context.Context, c tool.Caller) {
	const what = "sys_services: failed units"
	type unitsOut struct {
		Units []struct {
			Name string `json:"name"`
		} `json:"units"`
		Total int `json:"total"`
	}
	out, msg := call[unitsOut](ctx, c, "sys_services", map[string]any{"state": "failed"}, r)
	if out == nil {
		r.Services = &Services{Unread: msg}
		r.step(what, msg, false)
		return
	}
	r.Services = &Services{Total: out.Total, Failed: []string{}}
	for _, u := range out.Units {
		r.Services.Failed = append(r.Services.Failed, u.Name)
	}
	r.step(what, r.Services.line(), true)
}

// logs asks sys_logs for the last hour's entries of priority err and
// worse: an OOM kill, a disk error or a crashing service explains a
// verdict the counters only hint at.
func (r *Report) logs(ctx context.Context, c tool.Caller) {
	const what = "sys_logs: errors in the last hour"
	type logsOut struct {
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
	out, msg := call[logsOut](ctx, c, "sys_logs", args, r)
	if out != nil && out.Source == "file" { // plain log lines carry no priority: look for the words instead
		args["grep"] = errorWords
		delete(args, "priority")
		out, msg = call[logsOut](ctx, c, "sys_logs", args, r)
	}
	if out == nil {
		r.Logs = &LogErrors{Unread: msg}
		r.step(what, msg, false)
		return
	}
	l := &LogErrors{Source: out.Source, Count: len(out.Entries), More: out.Truncated, Newest: []string{}}
	for i := len(out.Entries) - 1; i >= 0 && len(l.Newest) < newestLogErrors; i-- {
		e := out.Entries[i]
		l.Newest = append(l.Newest, fmt.Sprintf("%s %s: %s", e.Time, cmp.Or(e.Unit, e.Identifier, out.Source), e.Message))
	}
	r.Logs = l
	r.step(what, l.line(), true)
}

// platform says where the host runs: "docker on kvm, cgroup hybrid".
func platform(i *hostinfo.Info) string {
	v := i.Virtualization
	where := v.Type
	switch {
	case where == "" || where == "none":
		where = "bare metal"
	case v.Container && v.VM != "" && v.VM != "none":
		where += " on " + v.VM
	}
	return where + ", cgroup " + v.CgroupMode
}
