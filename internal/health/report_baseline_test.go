package health

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// triage with a baseline: perf_snapshot is asked to compare, and the text
// says since when, what is new, what is gone and which rows changed.
func TestReportShowsTheBaselineComparison(t *testing.T) {
	t.Parallel()
	then := with(func(s *hostinfo.PerfSnapshot) { s.IO.Devices[0].Utilization = 90 })
	now := with(func(s *hostinfo.PerfSnapshot) { s.CPU.Utilization.Busy = 95 })
	cmpd := Compare(baselineOf(then), now, thisBoot, savedAt.Add(10*time.Minute))
	snapshot := func(args string) any {
		if !strings.Contains(args, `"compare_to":"default"`) {
			t.Errorf("perf_snapshot called with %s, want compare_to default", args)
		}
		return map[string]any{"interval_ms": now.IntervalMS, "cpu": now.CPU, "memory": now.Memory, "io": now.IO, "network": now.Network,
			"pressure": now.Pressure, "cgroups": now.Cgroups, "filesystems": now.Filesystems, "baseline": BaselineResult{Compared: &cmpd}}
	}
	rep := CollectWith(context.Background(), &fakeCaller{answers: map[string]any{"perf_info": info(), "perf_snapshot": snapshot}}, "hostmcp triage", &CollectOptions{CompareTo: "default"})
	text := rep.Text()
	for _, has := range []string{
		`Baseline  since baseline "default" (saved 10 min ago): critical then, critical now; 1 new: critical cpu utilization; 1 gone, 0 persisting`,
		"New       critical cpu utilization: cpu_busy_percent 95 > 90 (CPU busy 95% of 4 CPUs",
		"Gone      critical disk utilization: disk_utilization_percent (vda) 90 then, 5 now",
		"Changed   cpu utilization healthy -> critical: cpu_busy_percent 10 -> 95",
		"Changed   disk utilization critical -> healthy: disk_utilization_percent (vda) 90 -> 5",
	} {
		if !strings.Contains(text, has) {
			t.Errorf("report lacks %q:\n%s", has, text)
		}
	}
	if !strings.Contains(rep.Summary(), `Since baseline "default" (saved 10 min ago)`) {
		t.Errorf("summary %q does not compare", rep.Summary())
	}
	if v, b := strings.Index(text, "Verdict"), strings.Index(text, "Baseline"); v < 0 || b < v {
		t.Errorf("the comparison comes before the verdict:\n%s", text)
	}
}

// Without a baseline the report says how to keep one; when the comparison
// fails, the snapshot is taken without it and the report says why.
func TestReportWithoutBaseline(t *testing.T) {
	t.Parallel()
	rep := CollectWith(context.Background(), &fakeCaller{answers: map[string]any{"perf_info": info(), "perf_snapshot": quiet()}}, "hostmcp triage",
		&CollectOptions{NoBaseline: "none kept; save one with " + SaveBaselineHint})
	if text := rep.Text(); !strings.Contains(text, `Baseline  none kept; save one with hostmcp call perf_snapshot '{"save_as":"default"}'`) {
		t.Errorf("report without a baseline:\n%s", text)
	}

	f := &fakeCaller{answers: map[string]any{"perf_info": info(), "perf_snapshot": func(args string) any {
		if strings.Contains(args, "compare_to") {
			return "not a snapshot"
		}
		return quiet()
	}}}
	rep = CollectWith(context.Background(), f, "hostmcp triage", &CollectOptions{CompareTo: "old"})
	if rep.Snapshot == nil || rep.Baseline != nil || len(f.args["perf_snapshot"]) != 2 || !strings.Contains(rep.Text(), `Baseline  comparing with baseline "old" failed: perf_snapshot: unreadable answer`) {
		t.Errorf("a failed comparison: snapshot %v, calls %q\n%s", rep.Snapshot != nil, f.args["perf_snapshot"], rep.Text())
	}
}
