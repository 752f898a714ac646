package triage

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// fakeCaller answers each tool with fixed data, or fails it.
type fakeCaller map[string]any

func (f fakeCaller) Call(_ context.Context, name string, _ json.RawMessage) (tool.Result, error) {
	v, ok := f[name]
	if !ok {
		e := tool.Errorf(tool.CapabilityMissing, "not here")
		return tool.Result{Err: e}, nil
	}
	b, _ := json.Marshal(v)
	return tool.Result{Envelope: tool.Envelope{Success: true, Data: b, Warnings: []string{"w1"}}}, nil
}

func info() hostinfo.Info {
	var i hostinfo.Info
	i.System.Hostname, i.System.Kernel, i.System.Arch, i.System.UptimeSeconds = "box", "6.1", "x86_64", 7200
	i.CPU.Threads, i.CPU.Model = 4, "Test CPU"
	i.Virtualization.Type, i.Virtualization.CgroupMode = "kvm", "v2"
	return i
}

func snap(cpu, load float64, usedGiB uint64, diskPct float64) hostinfo.Snapshot {
	return hostinfo.Snapshot{
		CPUPercent: cpu, LoadAvg: [3]float64{load, load, load},
		MemTotalBytes: 16 << 30, MemUsedBytes: usedGiB << 30, MemAvailableBytes: (16 - usedGiB) << 30,
		Disks: []hostinfo.Disk{{Mount: "/", UsedPercent: diskPct, FSType: "ext4", Device: "/dev/vda", TotalBytes: 100 << 30}},
	}
}

func TestVerdict(t *testing.T) {
	tests := []struct {
		name  string
		snap  hostinfo.Snapshot
		first string
		has   []string
	}{
		{"healthy", snap(10, 0.5, 4, 40), "Verdict   healthy", nil},
		{"busy CPU", snap(95, 3, 4, 40), "Verdict   CRITICAL", []string{"CPU busy 95%"}},
		{"warm CPU", snap(75, 1, 4, 40), "Verdict   WARNING", []string{"CPU busy 75%"}},
		{"overloaded", snap(50, 9, 4, 40), "Verdict   CRITICAL", []string{"load 9.00 on 4 CPUs"}},
		{"memory", snap(10, 0.5, 15, 40), "Verdict   CRITICAL", []string{"memory 94% used"}},
		{"disk", snap(10, 0.5, 4, 90), "Verdict   WARNING", []string{"/ 90% full"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := Collect(context.Background(), fakeCaller{"perf_info": info(), "sys_snapshot": tc.snap})
			var b strings.Builder
			if err := rep.Write(&b); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(b.String(), "\n")
			if !strings.HasPrefix(lines[0], "hostmcp triage: box") || !strings.HasPrefix(lines[1], tc.first) {
				t.Fatalf("report does not start with the header and verdict:\n%s", b.String())
			}
			for _, h := range tc.has {
				if !strings.Contains(lines[1], h) {
					t.Errorf("verdict %q lacks %q", lines[1], h)
				}
			}
		})
	}
}

func TestFailingToolIsReportedNotFatal(t *testing.T) {
	rep := Collect(context.Background(), fakeCaller{"sys_snapshot": snap(10, 0.5, 4, 40)})
	var b strings.Builder
	_ = rep.Write(&b)
	if len(rep.Problems) != 2 || !strings.Contains(b.String(), "Problem   perf_info: CAPABILITY_MISSING") || !strings.Contains(b.String(), "Memory") {
		t.Errorf("want the snapshot reported and perf_info's failure noted:\n%s", b.String())
	}
}

// With a USE check the verdict is its verdict, and the top suspicions
// follow it with their evidence, before anything else.
func TestVerdictFromUseCheck(t *testing.T) {
	use := health.UseCheck{Summary: health.UseSummary{Status: "critical", Verdict: "CPU saturated: busy 100%",
		TopSuspicions: []health.Suspicion{
			{Resource: "cpu", Dimension: "utilization", Metric: "cpu_busy_percent", Value: 100, Threshold: 90, Comparison: ">", Severity: "critical", Detail: "2 of 2 CPUs busy"},
			{Resource: "cpu", Dimension: "saturation", Metric: "run_queue_per_cpu", Value: 2.5, Threshold: 2, Comparison: ">", Severity: "critical", Detail: "5 runnable"},
		}}}
	rep := Collect(context.Background(), fakeCaller{"perf_info": info(), "sys_snapshot": snap(99, 5, 4, 90), "perf_use_check": use})
	var b strings.Builder
	if err := rep.Write(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if lines[1] != "Verdict   CRITICAL: CPU saturated: busy 100%; / 90% full" {
		t.Fatalf("verdict line %q", lines[1])
	}
	if lines[2] != "Suspect   critical cpu utilization: cpu_busy_percent 100 > 90 (2 of 2 CPUs busy)" || !strings.HasPrefix(lines[3], "Suspect   critical cpu saturation: run_queue_per_cpu 2.5 > 2") {
		t.Fatalf("suspicions do not follow the verdict:\n%s", b.String())
	}
	if strings.Contains(lines[1], "CPU busy 99%") {
		t.Errorf("the snapshot's CPU judgement doubled the USE check's: %q", lines[1])
	}
}
