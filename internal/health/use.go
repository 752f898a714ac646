// Package health judges a host from hostinfo's readings: the thresholds,
// the verdicts with their suspicions and causes, and the health report
// that hostmcp triage prints and the system_health flow answers. hostinfo
// only reads; every judgement of what it read is made here, once.
package health

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// The status words of every verdict, of a whole check and of each of its
// metrics alike: healthy (nothing over its warning threshold), warning,
// critical. A suspicion's severity is one of the last two.
const (
	StatusHealthy  = "healthy"
	StatusWarning  = "warning"
	StatusCritical = "critical"
)

// UseCheck is perf_use_check's UseCheckData (spec 000 section 3.2), with
// the interval its figures were measured over.
type UseCheck struct {
	IntervalMS int64        `json:"interval_ms" jsonschema:"the interval every judged figure was measured over"`
	Summary    UseSummary   `json:"summary"`
	Resources  UseResources `json:"resources"`
}

// UseSummary is the verdict: healthy, warning or critical, one line saying
// why, and every finding over a threshold, worst first and, among equals,
// the ones that name their cause first.
type UseSummary struct {
	Status        string      `json:"status" jsonschema:"healthy, warning or critical"`
	Verdict       string      `json:"verdict"`
	TopSuspicions []Suspicion `json:"top_suspicions"`
}

// Suspicion is one metric over its threshold, with the evidence.
type Suspicion struct {
	Resource  string `json:"resource"`  // cpu, memory, disk, network, filesystem, or cgroup for perf_cgroup_summary
	Dimension string `json:"dimension"` // utilization, saturation or errors
	Metric    string `json:"metric"`
	// Subject tells apart the checks of one metric: a disk, an interface,
	// a mount, a cgroup.
	Subject string  `json:"subject,omitempty"`
	Value   float64 `json:"value"`
	// Threshold is the one crossed (the critical one when critical), and
	// Comparison says which side is bad: ">" or "<".
	Threshold  float64 `json:"threshold"`
	Comparison string  `json:"comparison"`
	Severity   string  `json:"severity"` // warning or critical
	Detail     string  `json:"detail"`
	// Cause is what produced the symptom, when the readings show it.
	Cause *Cause `json:"cause,omitempty" jsonschema:"what produced this symptom when the readings show it, such as a cgroup's own limit, with the numbers behind it"`
}

// Cause is a symptom's origin: a cgroup's own limit (its CPU quota, its
// memory limit, its block I/O limit) rather than the host running short.
// The reading behind it comes along on the suspicion that judges it; a
// suspicion that only points at a cause (a stall the limit explains)
// carries its kind and cgroup.
type Cause struct {
	Kind   string `json:"kind" jsonschema:"cpu_quota, memory_limit, oom_kill or io_limit"`
	Cgroup string `json:"cgroup" jsonschema:"the cgroup whose limit it is, as a path inside its hierarchy"`
	// At most one of these is set.
	Throttle *hostinfo.ThrottledCgroup     `json:"cpu_quota,omitempty"`
	Memory   *hostinfo.MemoryLimitedCgroup `json:"memory_limit,omitempty"`
	IO       *hostinfo.IOLimitedCgroup     `json:"io_limit,omitempty"`
	Victims  []hostinfo.OOMKill            `json:"oom_victims,omitempty"`
}

// Cause kinds.
const (
	CauseCPUQuota    = "cpu_quota"
	CauseMemoryLimit = "memory_limit"
	CauseOOMKill     = "oom_kill"
	CauseIOLimit     = "io_limit"
)

// UseResources are the resources the USE check judges: the four of spec
// 000 and file system capacity.
type UseResources struct {
	CPU     UseMetrics `json:"cpu"`
	Memory  UseMetrics `json:"memory"`
	Disk    UseMetrics `json:"disk"`
	Network UseMetrics `json:"network"`
	// Filesystem is capacity: space and inodes used, and recorded errors.
	Filesystem UseMetrics `json:"filesystem"`
}

// UseMetrics are one resource's utilisation, saturation and errors.
type UseMetrics struct {
	Utilization UseValue `json:"utilization"`
	Saturation  UseValue `json:"saturation"`
	Errors      UseCount `json:"errors"`
}

// UseValue is a dimension's verdict: the worst of its checks (the one
// nearest its threshold when all are healthy), with that check's metric,
// value, status and detail, so the value shown is the value judged.
type UseValue struct {
	Metric  string  `json:"metric,omitempty"`
	Subject string  `json:"subject,omitempty"`
	Value   float64 `json:"value"`
	Status  string  `json:"status" jsonschema:"healthy, warning or critical"`
	Detail  string  `json:"detail"`
}

// UseCount is the errors dimension, chosen as UseValue is: Count is the
// judged check's value (a count, or a rate per second for rates).
type UseCount struct {
	Metric  string  `json:"metric,omitempty"`
	Subject string  `json:"subject,omitempty"`
	Count   float64 `json:"count"`
	Status  string  `json:"status" jsonschema:"healthy, warning or critical"`
	Detail  string  `json:"detail"`
}

// Judge says how bad v is against t.
func (t Threshold) Judge(v float64) (severity string, crossed float64) {
	if t.Below {
		switch {
		case v < t.Crit:
			return StatusCritical, t.Crit
		case v < t.Warn:
			return StatusWarning, t.Warn
		}
		return StatusHealthy, t.Warn
	}
	switch {
	case v > t.Crit:
		return StatusCritical, t.Crit
	case v > t.Warn:
		return StatusWarning, t.Warn
	}
	return StatusHealthy, t.Warn
}

// finding is a check's outcome before it is sorted into the report.
type finding struct {
	Suspicion
	ok bool
}

// check judges one value and returns its finding.
func check(resource, dim string, t Threshold, metric string, v float64, detail string) finding {
	sev, crossed := t.Judge(v)
	cmpOp := ">"
	if t.Below {
		cmpOp = "<"
	}
	return finding{Suspicion: Suspicion{Resource: resource, Dimension: dim, Metric: metric, Value: figures.Round2(v),
		Threshold: crossed, Comparison: cmpOp, Severity: sev, Detail: detail}, ok: sev == StatusHealthy}
}

// on names the disk, interface, mount or cgroup a finding judged.
func (f finding) on(subject string) finding { f.Subject = subject; return f }

// fine is a check that has nothing to judge, saying why.
func fine(detail string) finding {
	return finding{Suspicion: Suspicion{Severity: StatusHealthy, Detail: detail}, ok: true}
}

// summarize turns a list of checks into the summary: status, verdict line and
// the suspicions sorted by severity, then those naming a cause first (the
// cause before its symptoms), then by how far over the threshold.
func summarize(fs []finding) UseSummary {
	sum := UseSummary{Status: StatusHealthy, TopSuspicions: []Suspicion{}}
	for _, f := range fs {
		if !f.ok {
			sum.TopSuspicions = append(sum.TopSuspicions, f.Suspicion)
		}
	}
	slices.SortStableFunc(sum.TopSuspicions, func(a, b Suspicion) int {
		if c := cmp.Compare(rank(b.Severity), rank(a.Severity)); c != 0 {
			return c
		}
		if c := cmp.Compare(causeRank(b), causeRank(a)); c != 0 {
			return c
		}
		return cmp.Compare(excess(b), excess(a))
	})
	if len(sum.TopSuspicions) == 0 {
		sum.Verdict = "healthy: no resource over its warning threshold"
		return sum
	}
	sum.Status = sum.TopSuspicions[0].Severity
	parts := make([]string, 0, 3)
	for _, s := range sum.TopSuspicions[:min(3, len(sum.TopSuspicions))] {
		parts = append(parts, s.Detail)
	}
	sum.Verdict = fmt.Sprintf("%s: %s", sum.Status, strings.Join(parts, "; "))
	return sum
}

// causeRank puts a suspicion that carries its cause's reading before one
// that only points at it, and both before plain symptoms.
func causeRank(s Suspicion) int {
	switch {
	case s.Cause == nil:
		return 0
	case s.Cause.Throttle == nil && s.Cause.Memory == nil && s.Cause.IO == nil && s.Cause.Victims == nil:
		return 1
	}
	return 2
}

func rank(sev string) int {
	switch sev {
	case StatusCritical:
		return 2
	case StatusWarning:
		return 1
	}
	return 0
}

// excess is how far past its threshold a value is, relative to it, so that
// different units compare; a zero threshold counts the value itself.
func excess(s Suspicion) float64 {
	if s.Threshold == 0 {
		return s.Value
	}
	if s.Comparison == "<" {
		return (s.Threshold - s.Value) / s.Threshold
	}
	return (s.Value - s.Threshold) / s.Threshold
}

// worst picks the finding a dimension shows: the most severe, and among
// equals the one furthest past (or nearest to) its threshold, so that the
// value, status and detail shown are one check's.
func worst(fs ...finding) finding {
	best := fs[0]
	for _, f := range fs[1:] {
		if r, b := rank(f.Severity), rank(best.Severity); r > b || r == b && f.Metric != "" && (best.Metric == "" || excess(f.Suspicion) > excess(best.Suspicion)) {
			best = f
		}
	}
	return best
}
