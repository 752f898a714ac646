package health

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// fakeCaller answers each tool with fixed data, or fails it; it records
// the arguments of each call.
type fakeCaller struct {
	answers map[string]any
	served  map[string]bool // nil: cannot tell
	args    map[string][]string
}

func (f *fakeCaller) Call(_ context.Context, name string, args json.RawMessage) (tool.Result, error) {
	if f.args == nil {
		f.args = map[string][]string{}
	}
	f.args[name] = append(f.args[name], string(args))
	v, ok := f.answers[name]
	if !ok {
		return tool.Result{Err: tool.Errorf(tool.CapabilityMissing, "not here")}, nil
	}
	if fn, ok := v.(func(args string) any); ok {
		v = fn(string(args))
	}
	b, _ := json.Marshal(v)
	return tool.Result{Envelope: tool.Envelope{Success: true, Data: b, Warnings: []string{"w1"}}}, nil
}

type servingCaller struct{ *fakeCaller }

func (s servingCaller) Serves(name string) bool { return s.served[name] }

func info() hostinfo.Info {
	var i hostinfo.Info
	i.System.Hostname, i.System.Kernel, i.System.Arch, i.System.UptimeSeconds = "box", "6.1", "x86_64", 7200
	i.CPU.Threads, i.CPU.Model = 4, "Test CPU"
	i.Virtualization.Type, i.Virtualization.CgroupMode = "kvm", "v2"
	return i
}

// The verdict line is the USE check of the snapshot the report shows,
// whatever tool supplied it: each case is a quiet snapshot with one
// reading changed.
func TestReportVerdict(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		set   func(s *hostinfo.PerfSnapshot)
		first string
		has   []string
	}{
		{"healthy", func(*hostinfo.PerfSnapshot) {}, "Verdict   healthy: no resource over its warning threshold (over 1.5 s)", nil},
		{"busy CPU", func(s *hostinfo.PerfSnapshot) { s.CPU.Utilization.Busy = 95 }, "Verdict   CRITICAL: CPU busy 95% of 4 CPUs", nil},
		{"warm CPU", func(s *hostinfo.PerfSnapshot) { s.CPU.Utilization.Busy = 75 }, "Verdict   WARNING: CPU busy 75% of 4 CPUs", nil},
		{"memory", func(s *hostinfo.PerfSnapshot) { s.Memory.AvailablePercent = 6 }, "Verdict   CRITICAL: memory available 6.0%", nil},
		{"disk full", func(s *hostinfo.PerfSnapshot) { s.Filesystems[0].UsedPercent = 90 }, "Verdict   WARNING: / 90% full", nil},
		{"a throttled cgroup first, then its stall", func(s *hostinfo.PerfSnapshot) {
			s.CPU.Utilization.Busy = 34
			s.Pressure.CPU.SomePercent = 35
			s.Cgroups.CPUThrottled = []hostinfo.ThrottledCgroup{throttled(93, 700)}
		}, "Verdict   CRITICAL: cgroup /batch held off the CPU by its quota of 0.50 CPUs", []string{
			"Suspect   critical cpu saturation: cpu_throttled_percent 93 > 25 (cgroup /batch",
			"Suspect   critical cpu saturation: psi_cpu_some_percent 35 > 25 (PSI cpu some 35.0% of the 1.5 s interval",
			"Limited   /batch throttled 700 ms by its 0.50 CPU quota (13 of 15 periods)",
			"CPU       34% busy of 4 CPUs (Test CPU); load 0.00 0.00 0.00; run queue 1.0; stalled 35.0% of the interval",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			snap := quiet()
			tc.set(&snap)
			rep := Collect(context.Background(), &fakeCaller{answers: map[string]any{"perf_info": info(), "perf_snapshot": snap}}, "hostmcp triage")
			text := rep.Text()
			lines := strings.Split(text, "\n")
			if lines[0] != "hostmcp triage: box (Linux 6.1, x86_64), up 2h0m0s" || !strings.HasPrefix(lines[1], tc.first) {
				t.Fatalf("report does not start with the header and verdict:\n%s", text)
			}
			for _, h := range tc.has {
				if !strings.Contains(text, "\n"+h) {
					t.Errorf("report lacks %q:\n%s", h, text)
				}
			}
			if len(rep.Problems) != 0 {
				t.Errorf("problems: %q", rep.Problems)
			}
		})
	}
}

// The snapshot is asked for once, over 1 s, and judged in-process: the
// verdict and the resource lines describe the same interval.
func TestReportSamplesOnce(t *testing.T) {
	t.Parallel()
	f := &fakeCaller{answers: map[string]any{"perf_info": info(), "perf_snapshot": quiet()}}
	Collect(context.Background(), f, "t")
	if got := f.args["perf_snapshot"]; len(got) != 1 || got[0] != `{"interval_ms":1000}` || len(f.args["perf_use_check"]) != 0 {
		t.Errorf("calls: %v", f.args)
	}
}

// A failing core tool is a problem of the report and a failed step; a
// failing optional one (no systemd) only a failed step; the report goes on.
func TestReportFailingTools(t *testing.T) {
	t.Parallel()
	rep := Collect(context.Background(), &fakeCaller{answers: map[string]any{"perf_snapshot": quiet()}}, "hostmcp triage")
	text := rep.Text()
	if len(rep.Problems) != 1 || !strings.Contains(text, "Problem   perf_info: CAPABILITY_MISSING: not here") || !strings.Contains(text, "\nMemory    ") {
		t.Errorf("want the snapshot reported and perf_info's failure noted:\n%s", text)
	}
	if len(rep.Steps) != 4 || rep.Steps[0].OK || !rep.Steps[1].OK || !rep.Steps[2].OK || rep.Steps[3].OK ||
		!strings.HasPrefix(rep.Steps[3].Description, "sys_services") || !strings.Contains(rep.Steps[3].Result, "CAPABILITY_MISSING") {
		t.Errorf("steps: %+v", rep.Steps)
	}
	if !strings.Contains(text, "\nServices  not read: sys_services: CAPABILITY_MISSING: not here\n") || !strings.Contains(text, "Note      perf_snapshot: w1") {
		t.Errorf("the snapshot's warning is not noted:\n%s", text)
	}
	rep = Collect(context.Background(), &fakeCaller{answers: map[string]any{"perf_info": info()}}, "t")
	if rep.Status() != "unknown" || !strings.Contains(rep.Text(), "Verdict   unknown: the snapshot could not be taken") ||
		rep.Summary() != "Health unknown: the snapshot could not be taken." {
		t.Errorf("without a snapshot: %s\n%s", rep.Summary(), rep.Text())
	}
}

// Services and the last hour's log errors, when served; log files, whose
// lines carry no priority, are searched for error words.
func TestReportServicesAndLogs(t *testing.T) {
	t.Parallel()
	logs := func(args string) any {
		if !strings.Contains(args, `"grep"`) {
			return map[string]any{"source": "file", "entries": []any{}}
		}
		return map[string]any{"source": "file", "entries": []map[string]string{
			{"time": "10:00", "identifier": "app", "message": "ERROR: disk full"},
			{"time": "10:05", "identifier": "app", "message": "fatal: gone"},
		}}
	}
	f := &fakeCaller{answers: map[string]any{"perf_info": info(), "perf_snapshot": quiet(),
		"sys_services": map[string]any{"units": []map[string]string{{"name": "a.service"}, {"name": "b.service"}}, "total": 2},
		"sys_logs":     logs}, served: map[string]bool{"sys_services": true, "sys_logs": true}}
	rep := Collect(context.Background(), servingCaller{f}, "t")
	text := rep.Text()
	for _, want := range []string{"\nServices  2 failed: a.service, b.service\n", "\nLogs      2 errors in the file log; newest: 10:05 app: fatal: gone\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("report lacks %q:\n%s", want, text)
		}
	}
	if got := rep.Summary(); got != "Healthy: no resource over its warning threshold. 2 failed service(s). 2 log error(s) in the last hour." {
		t.Errorf("summary %q", got)
	}
	if len(rep.Steps) != 5 || !rep.Steps[4].OK {
		t.Errorf("steps: %+v", rep.Steps)
	}
	// A caller that does not serve sys_logs gets no log step.
	f = &fakeCaller{answers: map[string]any{"perf_info": info(), "perf_snapshot": quiet()}, served: map[string]bool{"sys_services": true}}
	if rep := Collect(context.Background(), servingCaller{f}, "t"); len(rep.Steps) != 4 || len(f.args["sys_logs"]) != 0 {
		t.Errorf("sys_logs asked for while not served: %+v %v", rep.Steps, f.args)
	}
}
