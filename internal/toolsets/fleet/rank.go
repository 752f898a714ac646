package fleet

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/prometheus/common/model"
)

// level is a host's status as a number: hostmcp_health_overall_status's
// 0 ok, 1 warning, 2 critical, and unreachable below them.
type level int

const (
	unreachable level = -1
	ok          level = 0
	warning     level = 1
	critical    level = 2
)

// String is the status as fleet_overview writes it.
func (l level) String() string {
	switch l {
	case ok:
		return "ok"
	case warning:
		return "warning"
	case critical:
		return "critical"
	}
	return "unreachable"
}

// order ranks statuses worst first: a critical or warning host is known to
// be in trouble, an unreachable one may be (or may be off), an ok one is not.
func (l level) order() int {
	switch l {
	case critical:
		return 0
	case warning:
		return 1
	case unreachable:
		return 2
	}
	return 3
}

// statusQuery is each instance's status at every step: its overall health
// status, or -1 where it has none (a failed scrape marks it stale at once)
// while its up series exists. An instance with neither has no point: no
// recent sample, unreachable too.
func statusQuery(p *prom) string {
	return fmt.Sprintf("max by (instance) (%s) or on (instance) (max by (instance) (%s) * 0 - 1)",
		p.sel("hostmcp_health_overall_status"), p.sel("up"))
}

// run is how long an instance has had its current status, read from a
// range query's points at start, start+step, ... end.
type run struct {
	Status level
	Since  time.Time
	// Whole is true when the status held over the whole window: it began
	// at Since or earlier.
	Whole bool
	// Seen is false when the window has no point at all: the host never
	// answered within it, and Since says nothing.
	Seen bool
}

// currentRun walks back from end while the status is the one at end; a
// step with no point is unreachable.
func currentRun(points []model.SamplePair, start, end time.Time, step time.Duration) run {
	at := make(map[int64]level, len(points))
	for _, p := range points {
		at[int64(p.Timestamp)] = level(p.Value)
	}
	status := func(t time.Time) level {
		if l, ok := at[t.UnixMilli()]; ok {
			return l
		}
		return unreachable
	}
	r := run{Status: status(end), Since: end, Seen: len(points) > 0}
	for t := end.Add(-step); !t.Before(start); t = t.Add(-step) {
		if status(t) != r.Status {
			return r
		}
		r.Since = t
	}
	r.Whole = true
	return r
}

// suspicion is a host's worst resource and dimension now.
type suspicion struct {
	Resource, Dimension string
	Level               level
	Value               float64
	// Count and Sum are the number of dimensions at the host's worst
	// level and the sum of every dimension's level: among hosts of one
	// status, more trouble ranks first.
	Count, Sum int
}

// resourceOrder and dimensionOrder break ties between dimensions at one
// level: the order perf_use_check reports them in.
var (
	resourceOrder  = []string{"cpu", "memory", "disk", "network", "filesystem"}
	dimensionOrder = []string{"saturation", "utilization", "errors"}
)

// worstDimensions reads hostmcp_health_status and hostmcp_health_value
// samples into each instance's suspicion.
func worstDimensions(statuses, values model.Vector) map[string]suspicion {
	type key struct{ instance, resource, dimension string }
	val := map[key]float64{}
	for _, s := range values {
		val[key{string(s.Metric[model.InstanceLabel]), string(s.Metric["resource"]), string(s.Metric["dimension"])}] = float64(s.Value)
	}
	byInstance := map[string][]suspicion{}
	for _, s := range statuses {
		k := key{string(s.Metric[model.InstanceLabel]), string(s.Metric["resource"]), string(s.Metric["dimension"])}
		byInstance[k.instance] = append(byInstance[k.instance], suspicion{Resource: k.resource, Dimension: k.dimension, Level: level(s.Value), Value: val[k]})
	}
	out := map[string]suspicion{}
	for inst, dims := range byInstance {
		slices.SortFunc(dims, func(a, b suspicion) int {
			return cmp.Or(cmp.Compare(b.Level, a.Level),
				cmp.Compare(orderIn(resourceOrder, a.Resource), orderIn(resourceOrder, b.Resource)),
				cmp.Compare(orderIn(dimensionOrder, a.Dimension), orderIn(dimensionOrder, b.Dimension)))
		})
		worst := dims[0]
		for _, d := range dims {
			worst.Sum += int(d.Level)
			if d.Level == worst.Level {
				worst.Count++
			}
		}
		out[inst] = worst
	}
	return out
}

func orderIn(list []string, s string) int {
	if i := slices.Index(list, s); i >= 0 {
		return i
	}
	return len(list)
}

// String is the suspicion as one phrase: "cpu saturation 3.2".
func (s suspicion) String() string {
	return fmt.Sprintf("%s %s %s", s.Resource, s.Dimension, formatValue(s.Value))
}

// formatValue writes a judged value with the digits that matter.
func formatValue(v float64) string {
	return fmt.Sprintf("%.4g", v)
}
