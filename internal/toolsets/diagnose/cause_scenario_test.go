package diagnose

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// The cause scenarios put one cgroup's own limit in the way of its
// processes and check that perf_use_check names the cgroup, the processes
// and the numbers, which the test reads from the cgroup's files before and
// after the call: the tool's interval lies between the two readings.

// readKeyedFile reads one counter of a "name value" file such as cpu.stat.
func readKeyedFile(t *testing.T, path, key string) uint64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == key {
			v, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil {
				t.Fatalf("%s %s: %v", path, key, err)
			}
			return v
		}
	}
	t.Fatalf("%s has no %s", path, key)
	return 0
}

// causeOf finds the suspicion whose cause is kind in cgroup cg.
func causeOf(s health.UseSummary, kind, cg string) *health.Suspicion {
	for i, x := range s.TopSuspicions {
		if c := x.Cause; c != nil && c.Kind == kind && c.Cgroup == cg && (c.Throttle != nil || c.Memory != nil || c.IO != nil || c.Victims != nil) {
			return &s.TopSuspicions[i]
		}
	}
	return nil
}

func hasPID(ps []hostinfo.CgroupProcess, pid int) bool {
	return slices.ContainsFunc(ps, func(p hostinfo.CgroupProcess) bool { return p.PID == pid })
}

// A busy loop under a 0.2 CPU quota: the verdict names the throttled
// cgroup and its process, with the throttled time of the interval, which
// lies within what the test read from cpu.stat around the call. The
// cgroup's weight is raised so that other load on the host does not keep
// the loop below its quota.
func TestScenarioQuotaNamedAsCause(t *testing.T) {
	testutil.ExclusiveLoad(t)
	files := map[string]string{"cpu.cfs_period_us": "100000", "cpu.cfs_quota_us": "20000", "cpu.shares": "262144"}
	key, unit := "throttled_time", 1e6 // ns
	if _, err := os.Stat("/sys/fs/cgroup/cpu"); err != nil {
		files = map[string]string{"cpu.max": "20000 100000", "cpu.weight": "10000"}
		key, unit = "throttled_usec", 1e3
	}
	dir, move := cgroupDir(t, "cpu", files)
	w := startWorkload(t, nil, "spin")
	move(w.Process.Pid)
	stat := filepath.Join(dir, "cpu.stat")
	before := float64(readKeyedFile(t, stat, key)) / unit
	u := useCheck(t, newSet())
	after := float64(readKeyedFile(t, stat, key)) / unit

	cg := "/" + filepath.Base(dir)
	x := causeOf(u.Summary, health.CauseCPUQuota, cg)
	if x == nil || x.Cause.Throttle == nil {
		t.Fatalf("a spinning process under a 0.2 CPU quota in %s: verdict %q %+v", cg, u.Summary.Verdict, u.Summary.TopSuspicions)
	}
	th := x.Cause.Throttle
	if th.Source != stat || th.QuotaCPUs != 0.2 || !hasPID(th.Processes, w.Process.Pid) || !strings.Contains(x.Detail, "pid "+strconv.Itoa(w.Process.Pid)) {
		t.Errorf("the throttled cgroup's reading: %+v, detail %q", th, x.Detail)
	}
	const rounding = 0.002 // ms: each figure is rounded to the µs
	if th.ThrottledMS <= 0 || th.ThrottledTotalMS-th.ThrottledMS < before-rounding || th.ThrottledTotalMS > after+rounding {
		t.Errorf("throttled %.3f ms in the interval, %.3f ms in all at its end; the test read %.3f ms before the call and %.3f ms after", th.ThrottledMS, th.ThrottledTotalMS, before, after)
	}
	if x.Severity != "critical" || !strings.Contains(u.Summary.Verdict, cg) {
		t.Errorf("throttled in %v%% of periods: severity %s, verdict %q", th.ThrottledPercent, x.Severity, u.Summary.Verdict)
	}
}

// A process allocating past its memory cgroup's limit is OOM-killed while
// perf_use_check samples: the verdict names the cgroup and the victim, and
// the kill the cgroup's counter gained around the call.
func TestScenarioOOMKillNamed(t *testing.T) {
	testutil.ExclusiveLoad(t)
	usage, limit, events, key := "memory.usage_in_bytes", "memory.limit_in_bytes", "memory.oom_control", "oom_kill"
	if _, err := os.Stat("/sys/fs/cgroup/memory"); err != nil {
		usage, limit, events = "memory.current", "memory.max", "memory.events"
	}
	dir, move := cgroupDir(t, "memory", nil)
	w := startWorkload(t, nil, "alloc", "256")
	move(w.Process.Pid)
	b, err := os.ReadFile(filepath.Join(dir, usage))
	if err != nil {
		t.Fatal(err)
	}
	used, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err := os.WriteFile(filepath.Join(dir, limit), []byte(strconv.FormatInt(used+64<<20, 10)), 0); err != nil {
		t.Fatal(err)
	}
	before := readKeyedFile(t, filepath.Join(dir, events), key)
	// The allocation starts once the tool has taken its first reading.
	u := tooltest.MustRunStarted[health.UseCheck](t, context.Background(), newSet().useCheck(), map[string]any{"interval_ms": 3000}, func() {
		_, _ = fmt.Fprintln(w.in, "go") // 256 MiB under a limit 64 MiB above use: killed
	})
	after := readKeyedFile(t, filepath.Join(dir, events), key)
	if after-before != 1 {
		t.Fatalf("the test's cgroup counted %d OOM kills around the call, want 1", after-before)
	}

	cg := "/" + filepath.Base(dir)
	x := causeOf(u.Summary, health.CauseOOMKill, cg)
	if x == nil {
		t.Fatalf("pid %d OOM-killed in %s during the interval: verdict %q %+v", w.Process.Pid, cg, u.Summary.Verdict, u.Summary.TopSuspicions)
	}
	victim := slices.IndexFunc(x.Cause.Victims, func(k hostinfo.OOMKill) bool {
		return k.PID == w.Process.Pid && k.Cgroup == cg && k.LimitCgroup == cg && k.Constraint == "CONSTRAINT_MEMCG"
	})
	if victim < 0 || x.Resource != "memory" || x.Dimension != "errors" || x.Severity != "critical" ||
		!strings.Contains(x.Detail, fmt.Sprintf("pid %d (", w.Process.Pid)) || !strings.Contains(x.Detail, cg) {
		t.Errorf("the OOM kill's suspicion: %+v, victims %+v", x, x.Cause.Victims)
	}
	if m := x.Cause.Memory; m == nil || m.OOMKills != after-before || m.OOMKillsTotal != after || math.Abs(float64(m.LimitBytes)-float64(used+64<<20)) > 4096 {
		t.Errorf("the cgroup's reading: %+v; the test read oom_kill %d -> %d", m, before, after)
	}
}

// Direct writes under an 80 write IOPS limit on the root disk: the verdict
// names the limit, its cgroup and the writer as the cause of slow writes,
// with a write rate that the cgroup's own counters bound around the call.
func TestScenarioIOLimitNamedAsCause(t *testing.T) {
	testutil.ExclusiveLoad(t)
	if _, err := os.Stat("/sys/fs/cgroup/blkio"); err != nil {
		testutil.Missing(t, "no v1 blkio hierarchy here: %v", err) // v2 io.max is tested from fixtures
	}
	tmp, err := os.MkdirTemp("/var/tmp", "hostmcp-iolimit-") // on the root disk, never a tmpfs
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	dev, _ := rootDisk(t, tmp)
	dir, _ := cgroupDir(t, "blkio", map[string]string{"blkio.throttle.write_iops_device": dev + " 80"})
	// The writer joins the cgroup before it opens its file and writes.
	writer := startWorkload(t, []string{"/bin/sh", "-c", `echo $$ > "$0"/cgroup.procs && exec "$@"`, dir}, "diskwrite", filepath.Join(tmp, "f"))
	before, t0 := cgroupWrites(t, dir, dev), time.Now()
	u := useCheck(t, newSet())
	after, t1 := cgroupWrites(t, dir, dev), time.Now()

	cg := "/" + filepath.Base(dir)
	x := causeOf(u.Summary, health.CauseIOLimit, cg)
	if x == nil {
		t.Fatalf("direct writes under an 80 IOPS limit in %s: verdict %q %+v", cg, u.Summary.Verdict, u.Summary.TopSuspicions)
	}
	l := x.Cause.IO
	window := float64(u.IntervalMS) / 1000
	writes := l.WritesPerSec * window
	outer := float64(after - before)
	if n := l.Nearest(); n.Limit != 80 || n.Kind != "write_iops" || n.File != filepath.Join(dir, "blkio.throttle.write_iops_device") ||
		l.MajorMinor != dev || !hasPID(l.Processes, writer.Process.Pid) {
		t.Errorf("the limited cgroup's reading: %+v", l)
	}
	// The interval lies inside the test's readings, and blk-throttle lets
	// a throttled cgroup's I/O through in slices: the counts agree within
	// what the limit allows outside the interval and a tenth for slices.
	if writes > outer+1 || writes < outer-80*(t1.Sub(t0).Seconds()-window)-0.1*outer-2 || l.LimitUsedPercent < health.ThreshIOLimit.Warn {
		t.Errorf("%.1f writes in the %.2f s interval (%.0f%% of the limit); the cgroup counted %.0f in the %.2f s around the call", writes, window, l.LimitUsedPercent, outer, t1.Sub(t0).Seconds())
	}
	if x.Resource != "disk" || !strings.Contains(x.Detail, "blkio.throttle.write_iops_device") || !strings.Contains(x.Detail, fmt.Sprintf("pid %d", writer.Process.Pid)) {
		t.Errorf("suspicion %+v", x)
	}
}
