package diagnose

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// The scenario tests induce one bottleneck each on the live host and check
// that the verdict names it. They make load, so each holds the machine-wide
// load lock; they end only the processes they started, by pid, and remove
// the cgroups and network namespaces they made.

// suspected reports whether a verdict names resource (and dimension, when
// not empty) among its suspicions.
func suspected(s health.UseSummary, resource, dimension string) bool {
	for _, x := range s.TopSuspicions {
		if x.Resource == resource && (dimension == "" || x.Dimension == dimension) {
			return true
		}
	}
	return false
}

func useCheck(t *testing.T, s *Set) health.UseCheck {
	t.Helper()
	return tooltest.MustRun[health.UseCheck](t, context.Background(), s.useCheck(), map[string]any{"interval_ms": 1500})
}

// CPU saturation: a busy loop on every core, judged from the interval the
// tool sampled. The test reads /proc/stat and /proc/pressure/cpu around
// the call: the CPUs were busy through it, and the PSI verdict agrees with
// the stall the kernel counted.
func TestScenarioCPUSaturation(t *testing.T) {
	testutil.ExclusiveLoad(t)
	for range runtime.NumCPU() {
		startWorkload(t, nil, "spin")
	}
	busyBefore, totalBefore := cpuJiffies(t)
	var u health.UseCheck
	lo, hi := psiBracket(t, "cpu", func() int64 { u = useCheck(t, newSet()); return u.IntervalMS })
	busyAfter, totalAfter := cpuJiffies(t)
	outer := float64(busyAfter-busyBefore) / float64(totalAfter-totalBefore) * 100
	util := u.Resources.CPU.Utilization
	if util.Metric != health.ThreshCPUBusy.Metric || util.Value < health.ThreshCPUBusy.Crit || util.Status != "critical" || outer < health.ThreshCPUBusy.Crit {
		t.Fatalf("busy loops on every core: utilization %+v, the test read %.1f%% busy around the call", util, outer)
	}
	if !suspected(u.Summary, "cpu", "utilization") || u.Summary.Status != "critical" || !strings.Contains(u.Summary.Verdict, "CPU") {
		t.Fatalf("busy loops on every core, verdict %q %+v", u.Summary.Verdict, u.Summary.TopSuspicions)
	}
	checkPSIVerdict(t, u, "cpu", lo, hi)
}

// cpuJiffies reads the busy (all but idle and iowait) and total jiffies of
// /proc/stat's cpu line.
func cpuJiffies(t *testing.T) (busy, total uint64) {
	t.Helper()
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(strings.SplitN(string(b), "\n", 2)[0])
	for i, s := range f[1:min(len(f), 9)] { // user nice system idle iowait irq softirq steal
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("/proc/stat: %q", f)
		}
		total += v
		if i != 3 && i != 4 {
			busy += v
		}
	}
	return busy, total
}

// Disk saturation: synchronous direct writes keep the disk busy.
func TestScenarioDiskSaturation(t *testing.T) {
	testutil.ExclusiveLoad(t)
	dir, err := os.MkdirTemp("/var/tmp", "hostmcp-disk-") // on the root disk, never a tmpfs
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for i := range 2 {
		startWorkload(t, nil, "diskwrite", filepath.Join(dir, "f"+strconv.Itoa(i)))
	}
	u := useCheck(t, newSet())
	if !suspected(u.Summary, "disk", "") {
		t.Fatalf("direct writes in a loop, verdict %q %+v (disk %+v)", u.Summary.Verdict, u.Summary.TopSuspicions, u.Resources.Disk)
	}
}

// cgroupDir makes a cgroup for controller (v1 hierarchy when the host has
// one for it, else the unified one) with files set, and removes it at the
// end. It returns a function that moves a pid into it.
func cgroupDir(t *testing.T, controller string, files map[string]string) (string, func(pid int)) {
	t.Helper()
	return testutil.CgroupDir(t, controller, files)
}

func cgroupSummary(t *testing.T, pid int) health.CgroupCheck {
	t.Helper()
	return tooltest.MustRun[health.CgroupCheck](t, context.Background(), newSet().cgroupSummary(), map[string]any{"pid": pid, "interval_ms": 1500})
}

// CPU throttling: a busy loop in a cgroup allowed a fifth of a CPU.
func TestScenarioCPUThrottling(t *testing.T) {
	testutil.ExclusiveLoad(t)
	files := map[string]string{"cpu.cfs_period_us": "100000", "cpu.cfs_quota_us": "20000"}
	if _, err := os.Stat("/sys/fs/cgroup/cpu"); err != nil {
		files = map[string]string{"cpu.max": "20000 100000"}
	}
	_, move := cgroupDir(t, "cpu", files)
	w := startWorkload(t, nil, "spin")
	move(w.Process.Pid)
	c := cgroupSummary(t, w.Process.Pid)
	if c.CPU == nil || c.CPU.ThrottledPercent < 50 || c.CPU.QuotaCPUs == nil || *c.CPU.QuotaCPUs != 0.2 {
		t.Fatalf("a spinning process under a 0.2 CPU quota: %+v", c.CPU)
	}
	if !suspected(c.Summary, "cgroup", "") || !strings.Contains(c.Summary.Verdict, "throttl") {
		t.Fatalf("verdict %q %+v", c.Summary.Verdict, c.Summary.TopSuspicions)
	}
}

// Memory pressure: a process holding nearly all of its cgroup's limit. The
// limit is what the process already uses plus 64 MiB, of which it then
// touches 60.
func TestScenarioMemoryPressure(t *testing.T) {
	testutil.ExclusiveLoad(t)
	usage, limit := "memory.usage_in_bytes", "memory.limit_in_bytes"
	if _, err := os.Stat("/sys/fs/cgroup/memory"); err != nil {
		usage, limit = "memory.current", "memory.max"
	}
	dir, move := cgroupDir(t, "memory", nil)
	w := startWorkload(t, nil, "alloc", "60")
	move(w.Process.Pid)
	b, err := os.ReadFile(filepath.Join(dir, usage))
	if err != nil {
		t.Fatal(err)
	}
	used, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err := os.WriteFile(filepath.Join(dir, limit), []byte(strconv.FormatInt(used+64<<20, 10)), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Fprintln(w.in, "go"); err != nil {
		t.Fatal(err)
	}
	w.expect(t, "allocated")
	c := cgroupSummary(t, w.Process.Pid)
	if c.Memory == nil || c.Memory.LimitPercent < 90 {
		t.Fatalf("60 MiB more held under a limit 64 MiB above use: %+v", c.Memory)
	}
	if !suspected(c.Summary, "cgroup", "") || !strings.Contains(c.Summary.Verdict, "memory") {
		t.Fatalf("verdict %q %+v", c.Summary.Verdict, c.Summary.TopSuspicions)
	}
}

// An FD leak: a process opening files in a loop and never closing them.
func TestScenarioFDLeak(t *testing.T) {
	w := startWorkload(t, nil, "fdleak")
	type fdOutView struct {
		Verdict  string            `json:"verdict"`
		Evidence []string          `json:"evidence"`
		Samples  []json.RawMessage `json:"samples"`
	}
	out := tooltest.MustRun[fdOutView](t, context.Background(), newSet().fdTrace(), map[string]any{"pid": w.Process.Pid, "duration_seconds": 4, "interval_sec": 1})
	if out.Verdict != "leaking" {
		t.Fatalf("a process opening a file every 100 ms: verdict %q, evidence %q", out.Verdict, out.Evidence)
	}
	quiet := startWorkload(t, nil, "alloc", "1") // waits on stdin: holds its descriptors still
	// A short watch without an interval samples every second, not every 5 s.
	out = tooltest.MustRun[fdOutView](t, context.Background(), newSet().fdTrace(), map[string]any{"pid": quiet.Process.Pid, "duration_seconds": 2})
	if out.Verdict != "stable" || len(out.Samples) < 3 {
		t.Fatalf("an idle process: verdict %q, evidence %q, %d samples", out.Verdict, out.Evidence, len(out.Samples))
	}
}

// Network errors: TCP through a link that drops what exceeds a tiny token
// bucket, between two network namespaces (this kernel has no netem).
func TestScenarioNetworkLoss(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "ip")
	testutil.RequireBinary(t, "tc")
	testutil.ExclusiveLoad(t)
	tag := strconv.Itoa(os.Getpid() % 100000)
	a, b := "hmtest-a-"+tag, "hmtest-b-"+tag
	run := func(args ...string) {
		t.Helper()
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			testutil.Missing(t, "%s: %v %s", strings.Join(args, " "), err, out)
		}
	}
	for _, ns := range []string{a, b} {
		run("ip", "netns", "add", ns)
		t.Cleanup(func() { _ = exec.Command("ip", "netns", "del", ns).Run() })
	}
	run("ip", "link", "add", "hma"+tag, "netns", a, "type", "veth", "peer", "name", "hmb"+tag, "netns", b)
	run("ip", "-n", a, "addr", "add", "10.231.0.1/24", "dev", "hma"+tag)
	run("ip", "-n", b, "addr", "add", "10.231.0.2/24", "dev", "hmb"+tag)
	run("ip", "-n", a, "link", "set", "hma"+tag, "up")
	run("ip", "-n", b, "link", "set", "hmb"+tag, "up")
	// 1 Mbit/s with a one-packet queue: most of a TCP burst is dropped.
	run("tc", "-n", a, "qdisc", "add", "dev", "hma"+tag, "root", "tbf", "rate", "1mbit", "burst", "1600", "limit", "1600")

	startWorkload(t, []string{"ip", "netns", "exec", b}, "sink", "10.231.0.2:7777")
	sender := startWorkload(t, []string{"ip", "netns", "exec", a}, "send", "10.231.0.2:7777")
	nh := tooltest.MustRun[health.NetCheck](t, context.Background(), newSet().netHealth(), map[string]any{"pid": sender.Process.Pid, "interval_ms": 3000})
	if nh.TCP == nil || !suspected(nh.Summary, "network", "") {
		t.Fatalf("TCP over a lossy link: verdict %q %+v tcp %+v", nh.Summary.Verdict, nh.Summary.TopSuspicions, nh.TCP)
	}
}

// A full file system that recorded an error: a small ext4 image,
// loop-mounted, holding a deleted file still open, filled past 95% and
// made to record an error through its trigger_fs_error knob (a throwaway
// file system, never the host's).
func TestScenarioFilesystemFull(t *testing.T) {
	testutil.ExclusiveLoad(t)
	testutil.RequireRoot(t)
	mkfs := testutil.RequireBinary(t, "mkfs.ext4")
	dir := t.TempDir()
	img, mnt := filepath.Join(dir, "fs.img"), filepath.Join(dir, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(mkfs, "-q", "-F", img, "16M").CombinedOutput(); err != nil {
		t.Fatalf("mkfs.ext4: %v %s", err, out)
	}
	if out, err := exec.Command("mount", "-o", "loop,errors=continue", img, mnt).CombinedOutput(); err != nil {
		testutil.Missing(t, "cannot loop-mount an ext4 image: %v %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", mnt, err, out)
		}
	})
	// A log deleted while still open: space df counts and du cannot find.
	held, err := os.Create(filepath.Join(mnt, "app.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if _, err := held.Write(make([]byte, 2<<20)); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(held.Name()); err != nil {
		t.Fatal(err)
	}
	var st unix.Statfs_t
	if err := unix.Statfs(mnt, &st); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(mnt, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	err = unix.Fallocate(int(f.Fd()), 0, 0, int64(st.Bavail)*st.Bsize-64<<10)
	f.Close()
	if err != nil {
		t.Fatalf("filling the file system: %v", err)
	}
	var fi unix.Stat_t
	if err := unix.Stat(mnt, &fi); err != nil {
		t.Fatal(err)
	}
	dev, err := os.Readlink(fmt.Sprintf("/sys/dev/block/%d:%d", unix.Major(fi.Dev), unix.Minor(fi.Dev)))
	if err != nil {
		t.Fatal(err)
	}
	knob := filepath.Join("/sys/fs/ext4", filepath.Base(dev))
	if err := os.WriteFile(filepath.Join(knob, "trigger_fs_error"), []byte("hostmcp test error"), 0); err != nil {
		testutil.Missing(t, "cannot make ext4 record an error: %v", err)
	}
	for i := 0; ; i++ { // the count reaches the superblock from a work queue
		if b, _ := os.ReadFile(filepath.Join(knob, "errors_count")); strings.TrimSpace(string(b)) != "0" || i == 50 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}

	u := useCheck(t, newSet())
	var full, errs bool
	for _, x := range u.Summary.TopSuspicions {
		if x.Resource != "filesystem" || !strings.Contains(x.Detail, mnt) {
			continue
		}
		full = full || x.Metric == health.ThreshFSUsed.Metric && x.Severity == "critical" &&
			strings.Contains(x.Detail, fmt.Sprintf("deleted files still open, the largest pid %d ", os.Getpid()))
		errs = errs || x.Metric == health.ThreshFSErrors.Metric && x.Value >= 1
	}
	if !full || !errs || u.Summary.Status != "critical" {
		t.Fatalf("a full ext4 with an error at %s, verdict %q %+v", mnt, u.Summary.Verdict, u.Summary.TopSuspicions)
	}
}

// A quiet host after a burst: busy loops on every core for a few seconds
// raise PSI's avg10, then stop. The verdict judges the interval the tool
// sampled, which the test brackets with its own readings of
// /proc/pressure/cpu just before and just after the call. Other packages'
// tests and builds may load the host meanwhile, so the test asserts that
// the verdict agrees with what the kernel counted, not that the host is
// idle.
func TestScenarioQuietBaseline(t *testing.T) {
	testutil.ExclusiveLoad(t)
	testutil.RequireFile(t, "/proc/pressure/cpu")
	var burst []*workloadProc
	for range 2 * runtime.NumCPU() {
		burst = append(burst, startWorkload(t, nil, "spin"))
	}
	time.Sleep(3 * time.Second)
	for _, w := range burst {
		_ = w.Process.Kill()
		_ = w.Wait()
	}
	var u health.UseCheck
	lo, hi := psiBracket(t, "cpu", func() int64 { u = useCheck(t, newSet()); return u.IntervalMS })
	checkPSIVerdict(t, u, "cpu", lo, hi)
}

// psiBracket runs call, which samples the host over the interval it
// returns (ms), between two readings of /proc/pressure/res's some total,
// and returns the range of stall shares (percent) the call's interval can
// hold: at most the outer stall over the interval, at least the outer
// stall less the time outside the interval (a stall grows no faster than
// wall time).
func psiBracket(t *testing.T, res string, call func() int64) (lo, hi float64) {
	t.Helper()
	// The clock is read before the first reading and after the last, so
	// that a preemption between a reading and its clock widens the outer
	// interval (a lower lo) rather than narrowing it.
	t0 := time.Now()
	before := psiSomeTotal(t, res)
	window := float64(call()) / 1000
	after := psiSomeTotal(t, res)
	t1 := time.Now()
	stall := float64(after-before) / 1e6
	hi = min(100, stall/window*100)
	lo = max(0, (stall-(t1.Sub(t0).Seconds()-window))/window*100)
	return lo, hi
}

// checkPSIVerdict checks that u judged res's stall from its interval: a
// PSI suspicion's value lies in the range the test read, and a range all
// above the warning threshold is never missed.
func checkPSIVerdict(t *testing.T, u health.UseCheck, res string, lo, hi float64) {
	t.Helper()
	var psi *health.Suspicion
	for i, x := range u.Summary.TopSuspicions {
		if x.Metric == fmt.Sprintf(health.ThreshPSISome.Metric, res) {
			psi = &u.Summary.TopSuspicions[i]
		}
	}
	// The value is rounded to 0.01; and the tool times each reading to
	// within 2 ms (hostinfo's psiClockSlack), which is a share of the
	// interval at each end.
	slack := 0.01 + 2*2.0/float64(u.IntervalMS)*100
	switch {
	case psi != nil && (psi.Value > hi+slack || psi.Value < lo-slack):
		t.Fatalf("PSI %s some judged at %.2f%%, the interval the test read holds %.2f%% to %.2f%%: %q", res, psi.Value, lo, hi, u.Summary.Verdict)
	case psi == nil && lo > health.ThreshPSISome.Warn:
		t.Fatalf("the interval held %.2f%% to %.2f%% of %s stall and the verdict does not say so: %q", lo, hi, res, u.Summary.Verdict)
	}
	t.Logf("%s stall %.2f%%..%.2f%% of %d ms, verdict %q", res, lo, hi, u.IntervalMS, u.Summary.Verdict)
}

// psiSomeTotal reads the total= of the some line of /proc/pressure/res, in µs.
func psiSomeTotal(t *testing.T, res string) uint64 {
	t.Helper()
	b, err := os.ReadFile("/proc/pressure/" + res)
	if err != nil {
		t.Fatal(err)
	}
	_, total, ok := strings.Cut(strings.SplitN(string(b), "\n", 2)[0], "total=")
	v, err := strconv.ParseUint(strings.TrimSpace(total), 10, 64)
	if !ok || err != nil {
		t.Fatalf("/proc/pressure/%s: %q", res, b)
	}
	return v
}
