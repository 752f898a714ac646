package fleet

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/prometheus/common/model"
)

func TestCurrentRun(t *testing.T) {
	start := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	step := 15 * time.Second
	end := start.Add(4 * step)
	at := func(i int) time.Time { return start.Add(time.Duration(i) * step) }
	pts := func(vals ...float64) []model.SamplePair { // one per step from start; NaN leaves the step out
		var out []model.SamplePair
		for i, v := range vals {
			if v == v {
				out = append(out, model.SamplePair{Timestamp: model.TimeFromUnixNano(at(i).UnixNano()), Value: model.SampleValue(v)})
			}
		}
		return out
	}
	nan := func() float64 { var z float64; return z / z }()
	tests := []struct {
		name string
		pts  []model.SamplePair
		want run
	}{
		{"critical since the third step", pts(0, 1, 2, 2, 2), run{Status: critical, Since: at(2), Seen: true}},
		{"ok all along", pts(0, 0, 0, 0, 0), run{Status: ok, Since: start, Whole: true, Seen: true}},
		{"up since its first sample", pts(nan, nan, 1, 1, 1), run{Status: warning, Since: at(2), Seen: true}},
		{"down since a failed scrape", pts(0, 0, -1, -1, -1), run{Status: unreachable, Since: at(2), Seen: true}},
		{"no recent sample", pts(0, 0, 0, nan, nan), run{Status: unreachable, Since: at(3), Seen: true}},
		{"never seen", nil, run{Status: unreachable, Since: start, Whole: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := currentRun(tc.pts, start, end, step); got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// The worst dimension leads; among equals, the order perf_use_check
// reports in; Count and Sum rank hosts of one status.
func TestWorstDimensions(t *testing.T) {
	sample := func(inst, res, dim string, v float64) *model.Sample {
		return &model.Sample{Metric: model.Metric{"instance": model.LabelValue(inst), "resource": model.LabelValue(res), "dimension": model.LabelValue(dim)}, Value: model.SampleValue(v)}
	}
	statuses := model.Vector{
		sample("a", "disk", "utilization", 2), sample("a", "cpu", "utilization", 2), sample("a", "cpu", "saturation", 2), sample("a", "memory", "errors", 1),
		sample("b", "network", "errors", 0), sample("b", "cpu", "saturation", 0),
	}
	values := model.Vector{sample("a", "cpu", "saturation", 3.25), sample("a", "cpu", "utilization", 99.5), sample("b", "cpu", "saturation", 0.1)}
	got := worstDimensions(statuses, values)
	if a := got["a"]; a.String() != "cpu saturation 3.25" || a.Level != critical || a.Count != 3 || a.Sum != 7 {
		t.Errorf("a: %+v (%s)", a, a)
	}
	if b := got["b"]; b.String() != "cpu saturation 0.1" || b.Level != ok || b.Count != 2 || b.Sum != 0 {
		t.Errorf("b: %+v (%s)", b, b)
	}
}

func TestSummarize(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`{"summary":{"status":"critical","verdict":"critical: run queue 4 on 2 CPUs"}}`, "critical: run queue 4 on 2 CPUs"},
		{`{"summary":"3 units failed"}`, "3 units failed"},
		{`{"status":"ok","x":1}`, "ok"},
		{`{"pids":[1,2],
 "n":2}`, `{"pids":[1,2], "n":2}`},
	} {
		if got := summarize(json.RawMessage(tc.data)); got != tc.want {
			t.Errorf("summarize(%s) = %q, want %q", tc.data, got, tc.want)
		}
	}
}
