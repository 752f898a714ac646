package diagnose

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// v2Mount is where the cgroup2 hierarchy is mounted (/sys/fs/cgroup on a
// v2 host, /sys/fs/cgroup/unified on a hybrid one).
func v2Mount(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 8 && strings.Contains(line, " - cgroup2 ") {
			return f[4]
		}
	}
	testutil.Missing(t, "no cgroup2 hierarchy is mounted")
	return ""
}

// More busy loops than CPUs in a v2 cgroup of their own (on this hybrid
// host, one in the unified tree while the CPU controller stays on v1):
// perf_cgroup_summary judges the cgroup's own stall over its interval,
// from the cgroup's cpu.pressure, whose total the test reads around the
// call.
func TestScenarioCgroupPressureWindow(t *testing.T) {
	testutil.ExclusiveLoad(t)
	testutil.RequireRoot(t)
	dir, err := os.MkdirTemp(v2Mount(t), "hostmcp-test-")
	if err != nil {
		testutil.Missing(t, "cannot create a v2 cgroup: %v", err)
	}
	t.Cleanup(func() {
		for range 50 { // the loops' own cleanups, registered later, have killed them
			if os.Remove(dir) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Errorf("cgroup %s could not be removed", dir)
	})
	pressure := filepath.Join(dir, "cpu.pressure")
	if _, err := os.Stat(pressure); err != nil {
		testutil.Missing(t, "no per-cgroup PSI: %v", err)
	}
	var first int
	for i := range 2*runtime.NumCPU() + 1 {
		w := startWorkload(t, nil, "spin")
		if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(w.Process.Pid)), 0); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = w.Process.Pid
		}
	}
	total := func() float64 {
		b, err := os.ReadFile(pressure)
		if err != nil {
			t.Fatal(err)
		}
		_, v, _ := strings.Cut(strings.SplitN(string(b), "\n", 2)[0], "total=")
		n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		if err != nil {
			t.Fatalf("%s: %q", pressure, b)
		}
		return float64(n)
	}
	before := total()
	c := cgroupSummary(t, first)
	after := total()

	w := c.PressureWindow
	if w == nil || len(w.From) != 1 || w.From[0].HostWide || !slices.Contains(w.From[0].Files, pressure) || w.CPU == nil {
		t.Fatalf("the cgroup's own pressure: %+v (dirs %+v)", w, c.CgroupDirs)
	}
	// The interval lies between the test's readings: its stall is within
	// the counter's growth around the call, and its total at the end too.
	if float64(w.CPU.SomeStallUS) > after-before || float64(w.CPU.SomeTotalUS) > after || float64(w.CPU.SomeTotalUS-w.CPU.SomeStallUS) < before || w.CPU.SomePercent <= 0 {
		t.Fatalf("stall %d µs, total %d µs at the end; the test read %.0f then %.0f", w.CPU.SomeStallUS, w.CPU.SomeTotalUS, before, after)
	}
	// The verdict judges that window, not avg10.
	metric := "psi_cpu_some_percent"
	sev, _ := health.ThreshPSISome.Judge(w.CPU.SomePercent)
	got := health.StatusHealthy
	for _, x := range c.Summary.TopSuspicions {
		if x.Metric == metric {
			got = x.Severity
			if x.Value != w.CPU.SomePercent {
				t.Errorf("judged %v, the window says %v", x.Value, w.CPU.SomePercent)
			}
		}
	}
	if got != sev {
		t.Errorf("the cgroup's stall of %.1f%% is %s, the verdict says %s: %+v", w.CPU.SomePercent, sev, got, c.Summary)
	}
}
