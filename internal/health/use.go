// Package health judges a host from hostinfo's readings: the thresholds,
// the verdicts with their suspicions and causes, and the health report
// that hostmcp triage prints and the system_health flow answers. hostinfo
// only reads; every judgement of what it read is made here, once.
package health

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/hostmcp/hostmcp/internal/num"
)

// Severity levels of a USE finding, and of a whole check.
const (
	StatusOK       = "ok"
	StatusWarning  = "warning"
	StatusCritical = "critical"
)

// UseCheck is perf_use_check's UseCheckData (spec 000 section 3.2).
type UseCheck struct {
	Summary   UseSummary   `json:"summary"`
	Resources UseResources `json:"resources"`
}

// UseSummary is the verdict: "healthy", "warning" or "critical", one line
// saying why, and every finding over a threshold, worst first.
type UseSummary struct {
	Status        string      `json:"status"`
	Verdict       string      `json:"verdict"`
	TopSuspicions []Suspicion `json:"top_suspicions"`
}

// Suspicion is one metric over its threshold, with the evidence.
type Suspicion struct {
	Resource  string  `json:"resource"`  // cpu, memory, disk, network, filesystem, or cgroup for perf_cgroup_summary
	Dimension string  `json:"dimension"` // utilization, saturation or errors
	Metric    string  `json:"metric"`
	Value     float64 `json:"value"`
	// Threshold is the one crossed (the critical one when critical), and
	// Comparison says which side is bad: ">" or "<".
	Threshold  float64 `json:"threshold"`
	Comparison string  `json:"comparison"`
	Severity   string  `json:"severity"` // warning or critical
	Detail     string  `json:"detail"`
}

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

// UseValue is a dimension's headline value and the worst status of its checks.
type UseValue struct {
	Value  float64 `json:"value"`
	Status string  `json:"status"`
	Detail string  `json:"detail"`
}

// UseCount is the errors dimension: a count (per second for rates).
type UseCount struct {
	Count  float64 `json:"count"`
	Status string  `json:"status"`
	Detail string  `json:"detail"`
}

// Threshold is one row of spec 000 appendix B.
type Threshold struct {
	Metric     string
	Warn, Crit float64
	Below      bool // bad when the value is below (available memory)
}

// The thresholds of spec 000 appendix B. Run queue thresholds are multiples
// of the CPU count. Network utilisation has no row there; it borrows the CPU
// row. OOM kills and listen drops have none either: any is an error.
var (
	ThreshCPUBusy      = Threshold{Metric: "cpu_busy_percent", Warn: 70, Crit: 90}
	ThreshRunQueue     = Threshold{Metric: "run_queue_per_cpu", Warn: 1, Crit: 2}
	ThreshMemAvailable = Threshold{Metric: "memory_available_percent", Warn: 20, Crit: 10, Below: true}
	ThreshSwapUsed     = Threshold{Metric: "swap_used_percent", Warn: 0, Crit: 50}
	ThreshOOMKills     = Threshold{Metric: "oom_kills", Warn: 0, Crit: 0}
	ThreshDiskUtil     = Threshold{Metric: "disk_utilization_percent", Warn: 60, Crit: 80}
	ThreshDiskQueue    = Threshold{Metric: "disk_avg_queue_size", Warn: 2, Crit: 8}
	ThreshNetUtil      = Threshold{Metric: "network_utilization_percent", Warn: 70, Crit: 90}
	ThreshNetDrops     = Threshold{Metric: "network_drops_per_sec", Warn: 0, Crit: 100}
	ThreshNetErrors    = Threshold{Metric: "network_errors_per_sec", Warn: 0, Crit: 100}
	ThreshListenDrops  = Threshold{Metric: "tcp_listen_drops_per_sec", Warn: 0, Crit: 100}
	ThreshRetransmit   = Threshold{Metric: "tcp_retransmit_percent", Warn: 1, Crit: 5}
	ThreshPSISome      = Threshold{Metric: "psi_%s_some_avg10", Warn: 10, Crit: 25}
	ThreshPSIFull      = Threshold{Metric: "psi_%s_full_avg10", Warn: 5, Crit: 15}
	// An accept queue more than half full means the program accepts slower
	// than connections arrive; a full one refuses them (listen overflows).
	ThreshListenQueue = Threshold{Metric: "listen_queue_fill_percent", Warn: 50, Crit: 90}
	// File system capacity has no row in appendix B. A full file system
	// fails writes outright, so the bar is df's usual alarm levels; errors
	// ext4 recorded since the last fsck are a warning (they may be old).
	ThreshFSUsed   = Threshold{Metric: "filesystem_used_percent", Warn: 85, Crit: 95}
	ThreshFSInodes = Threshold{Metric: "filesystem_inodes_used_percent", Warn: 85, Crit: 95}
	ThreshFSErrors = Threshold{Metric: "filesystem_errors", Warn: 0, Crit: math.Inf(1)}
)

// MinRetransSegs is the fewest segments sent in the interval for which a
// retransmit percentage is judged: 1 lost of 20 is not a 5% problem.
const MinRetransSegs = 100

// Judge says how bad v is against t.
func (t Threshold) Judge(v float64) (severity string, crossed float64) {
	if t.Below {
		switch {
		case v < t.Crit:
			return StatusCritical, t.Crit
		case v < t.Warn:
			return StatusWarning, t.Warn
		}
		return StatusOK, t.Warn
	}
	switch {
	case v > t.Crit:
		return StatusCritical, t.Crit
	case v > t.Warn:
		return StatusWarning, t.Warn
	}
	return StatusOK, t.Warn
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
	return finding{Suspicion: Suspicion{Resource: resource, Dimension: dim, Metric: metric, Value: num.Round2(v),
		Threshold: crossed, Comparison: cmpOp, Severity: sev, Detail: detail}, ok: sev == StatusOK}
}

// summarize turns a list of checks into the summary: status, verdict line and
// the suspicions sorted by severity, then by how far over the threshold.
func summarize(fs []finding) UseSummary {
	sum := UseSummary{Status: "healthy", TopSuspicions: []Suspicion{}}
	for _, f := range fs {
		if !f.ok {
			sum.TopSuspicions = append(sum.TopSuspicions, f.Suspicion)
		}
	}
	slices.SortStableFunc(sum.TopSuspicions, func(a, b Suspicion) int {
		if c := cmp.Compare(rank(b.Severity), rank(a.Severity)); c != 0 {
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

// worst folds findings into a dimension's status and detail: the worst
// finding's, or the first (headline) one's when all are fine.
func worst(fs ...finding) (status, detail string) {
	best := fs[0]
	for _, f := range fs[1:] {
		if rank(f.Severity) > rank(best.Severity) {
			best = f
		}
	}
	return best.Severity, best.Detail
}
