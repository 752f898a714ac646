package diagnose

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// blkioView is perf_cgroup_summary's answer as the agent reads it (the
// JSON), so the test checks what is shown.
type blkioView struct {
	Path     string            `json:"path"`
	Paths    map[string]string `json:"paths"`
	Pressure *struct {
		From []blkioSource `json:"from"`
	} `json:"pressure"`
	IO *struct {
		From    []blkioSource `json:"from"`
		Devices []blkioDevice `json:"devices"`
	} `json:"io"`
	IntervalMS int64 `json:"interval_ms"`
	Summary    struct {
		Verdict       string           `json:"verdict"`
		TopSuspicions []blkioSuspicion `json:"top_suspicions"`
	} `json:"summary"`
}

type blkioSource struct {
	Hierarchy  string   `json:"hierarchy"`
	Controller string   `json:"controller"`
	Cgroup     string   `json:"cgroup"`
	HostWide   bool     `json:"host_wide"`
	Files      []string `json:"files"`
}

type blkioDevice struct {
	Device       string  `json:"device"`
	MajorMinor   string  `json:"major_minor"`
	Writes       uint64  `json:"writes"`
	WritesPerSec float64 `json:"writes_per_sec"`
	Limits       []struct {
		Kind        string  `json:"kind"`
		Limit       uint64  `json:"limit"`
		Rate        float64 `json:"rate"`
		UsedPercent float64 `json:"used_percent"`
		File        string  `json:"file"`
	} `json:"limits"`
}

type blkioSuspicion struct {
	Resource string  `json:"resource"`
	Metric   string  `json:"metric"`
	Value    float64 `json:"value"`
	Detail   string  `json:"detail"`
}

// rootDisk names the whole disk under dir: its major:minor and its sysfs
// name (the disk, not the partition, is what throttle limits are set on).
func rootDisk(t *testing.T, dir string) (majMin, name string) {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		t.Fatal(err)
	}
	dev, err := filepath.EvalSymlinks(fmt.Sprintf("/sys/dev/block/%d:%d", unix.Major(st.Dev), unix.Minor(st.Dev)))
	if err != nil {
		testutil.Missing(t, "%s is not on a block device: %v", dir, err)
	}
	if _, err := os.Stat(filepath.Join(dev, "partition")); err == nil {
		dev = filepath.Dir(dev)
	}
	b, err := os.ReadFile(filepath.Join(dev, "dev"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b)), filepath.Base(dev)
}

// cgroupWrites reads the writes the throttle layer counted for majMin in the
// cgroup at dir: v1 blkio.throttle.io_serviced, or v2 io.stat.
func cgroupWrites(t *testing.T, dir, majMin string) uint64 {
	t.Helper()
	name, key := "blkio.throttle.io_serviced", "Write"
	if !strings.Contains(dir, "/blkio/") {
		name, key = "io.stat", "wios"
	}
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != majMin {
			continue
		}
		if len(f) == 3 && f[1] == key { // v1: "254:0 Write 312"
			v, _ := strconv.ParseUint(f[2], 10, 64)
			return v
		}
		for _, kv := range f[1:] { // v2: "254:0 ... wios=312 ..."
			if v, ok := strings.CutPrefix(kv, key+"="); ok {
				n, _ := strconv.ParseUint(v, 10, 64)
				return n
			}
		}
	}
	return 0
}

// startDD starts dd writing with O_DIRECT to file, moved into the cgroup at
// dir before its first write (the shell puts itself there, then execs dd),
// and kills it by pid at the end.
func startDD(t *testing.T, dd, dir, file string) int {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", `echo $$ > "$1/cgroup.procs" && exec "$2" if=/dev/zero of="$3" bs=4k count=1000000 oflag=direct`,
		"sh", dir, dd, file)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return cmd.Process.Pid
}

// I/O throttling: four direct-I/O dd writers in a cgroup limited to 80
// write IOPS on the root disk (v1 blkio here, v2 io.max where the io
// controller is on the unified tree). Four keep the throttle's queue full
// on a busy disk. The summary must show the limit and the cgroup's write
// counters, and name the limit as the cause; its counters must fall
// inside what the test reads from the same file around the call.
func TestScenarioBlkioThrottling(t *testing.T) {
	testutil.ExclusiveLoad(t)
	testutil.RequireRoot(t)
	dd := testutil.RequireBinary(t, "dd")
	tmp, err := os.MkdirTemp("/var/tmp", "hostmcp-blkio-") // on the root disk, never a tmpfs
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	majMin, disk := rootDisk(t, tmp)
	const limit = 80
	controller, limitFile, limitLine := "blkio", "blkio.throttle.write_iops_device", fmt.Sprintf("%s %d", majMin, limit)
	if _, err := os.Stat("/sys/fs/cgroup/blkio"); err != nil {
		controller, limitFile, limitLine = "io", "io.max", fmt.Sprintf("%s wiops=%d", majMin, limit)
	}
	dir, _ := cgroupDir(t, controller, map[string]string{limitFile: limitLine})
	cg := "/" + filepath.Base(dir)
	var pids []int
	for i := range 4 {
		pids = append(pids, startDD(t, dd, dir, filepath.Join(tmp, "f"+strconv.Itoa(i))))
	}
	for i := 0; cgroupWrites(t, dir, majMin) == 0; i++ {
		if i == 100 {
			t.Fatalf("no write counted in %s after 10 s", dir)
		}
		time.Sleep(100 * time.Millisecond)
	}

	before := cgroupWrites(t, dir, majMin)
	v := tooltest.MustRun[blkioView](t, context.Background(), newSet().cgroupSummary(), map[string]any{"pid": pids[0], "interval_ms": 2000})
	after := cgroupWrites(t, dir, majMin)
	outer := fmt.Sprintf("the test read %d writes before the call and %d after", before, after)

	if v.IO == nil || len(v.IO.From) != 1 {
		t.Fatalf("no I/O section read from one place: %+v", v.IO)
	}
	if src := v.IO.From[0]; src.Cgroup != cg || src.HostWide || !slices.Contains(src.Files, filepath.Join(dir, limitFile)) {
		t.Errorf("io from %+v: want cgroup %s and its %s", src, cg, limitFile)
	}
	if controller == "blkio" && (v.IO.From[0].Hierarchy != "v1" || v.IO.From[0].Controller != "blkio" || v.Paths["blkio"] != cg) {
		t.Errorf("v1 blkio: from %+v, paths %v", v.IO.From[0], v.Paths)
	}
	if v.Path != cg && !slices.Contains(slices.Collect(maps.Values(v.Paths)), v.Path) {
		t.Errorf("path %q is none of the cgroups read: %v", v.Path, v.Paths)
	}
	i := slices.IndexFunc(v.IO.Devices, func(d blkioDevice) bool {
		return d.MajorMinor == majMin
	})
	if i < 0 {
		t.Fatalf("no device %s in %+v", majMin, v.IO.Devices)
	}
	d := v.IO.Devices[i]
	t.Logf("%s: %+v; %s; verdict %q", majMin, d, outer, v.Summary.Verdict)
	if d.Device != disk || len(d.Limits) != 1 || d.Limits[0].Kind != "write_iops" || d.Limits[0].Limit != limit ||
		d.Limits[0].File != filepath.Join(dir, limitFile) || d.Limits[0].Rate != d.WritesPerSec {
		t.Fatalf("%s: want %s with its %d write IOPS limit from %s: %+v", majMin, disk, limit, limitFile, d)
	}
	// The tool's two readings lie between the test's: its total is the
	// second, and the second minus the window's writes is the first.
	window := d.WritesPerSec * float64(v.IntervalMS) / 1000
	if float64(d.Writes) > float64(after) || float64(d.Writes)-window < float64(before)-1 {
		t.Errorf("%d writes, %.1f in the %d ms window: not within the test's reading (%s)", d.Writes, window, v.IntervalMS, outer)
	}
	if d.WritesPerSec > limit*1.25 {
		t.Errorf("%.1f writes/s under a %d IOPS limit: the limit is not what throttles dd", d.WritesPerSec, limit)
	}
	named := slices.ContainsFunc(v.Summary.TopSuspicions, func(x blkioSuspicion) bool {
		return x.Resource == "cgroup" && x.Metric == "io_limit_used_percent" && x.Value == d.Limits[0].UsedPercent &&
			strings.Contains(x.Detail, disk) && strings.Contains(x.Detail, limitFile)
	})
	if !named {
		t.Errorf("writes at %.1f/s against %d allowed (%s): the limit is not named: %q", d.WritesPerSec, limit, outer, v.Summary.Verdict)
	}
	if p := v.Pressure; p != nil && len(p.From) == 1 && p.From[0].Cgroup == "/" {
		if !p.From[0].HostWide {
			t.Errorf("pressure from the unified root not called host-wide: %+v", p.From[0])
		}
		for _, x := range v.Summary.TopSuspicions {
			if strings.Contains(x.Detail, "PSI") && x.Resource == "cgroup" {
				t.Errorf("host-wide pressure judged as the cgroup's: %+v", x)
			}
		}
	}

	// By path, the same cgroup, and nothing else read.
	byPath := tooltest.MustRun[blkioView](t, context.Background(), newSet().cgroupSummary(), map[string]any{"cgroup_path": cg, "interval_ms": 500})
	if byPath.Path != cg || len(byPath.Paths) != 0 || byPath.IO == nil || byPath.IO.From[0].Cgroup != cg {
		t.Errorf("by cgroup_path %s: path %q, paths %v, io %+v", cg, byPath.Path, byPath.Paths, byPath.IO)
	}
}
