package hostinfo

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// limitsPair reads the cgroups with limits of testdata/name/{a,b}, dated
// as captured_at says (wall and CLOCK_MONOTONIC seconds, where the capture
// recorded them), else 2 s apart, and builds the snapshot between them.
func limitsPair(t *testing.T, name string) (*Host, Counters, Counters, PerfSnapshot) {
	t.Helper()
	read := func(side string, at time.Time) (*Host, Counters) {
		dir := filepath.Join("testdata", name, side)
		h := New(Roots{Proc: dir + "/proc", Sys: dir + "/sys", RootFS: dir})
		c, _, err := h.ReadCounters(&CounterOptions{Limits: true}) // no diskstats or net here: warnings
		if err != nil {
			t.Fatal(err)
		}
		c = c.At(at)
		if b, err := os.ReadFile(filepath.Join(dir, "captured_at")); err == nil {
			f := strings.Fields(string(b))
			wall, _ := strconv.ParseFloat(f[0], 64)
			mono, _ := strconv.ParseFloat(f[1], 64)
			c = c.At(time.Unix(0, int64(wall*1e9)))
			c.mono = time.Duration(mono * 1e9)
		}
		return h, c
	}
	t0 := time.Unix(1_000_000, 0)
	_, a := read("a", t0)
	h, b := read("b", t0.Add(2*time.Second))
	return h, a, b, BuildPerfSnapshot(SnapshotInput{Before: a, After: b})
}

// Captured on this kind of host (see testdata/README.md): one cgroup in
// the cpu, memory and blkio hierarchies, with a 0.2 CPU quota and a busy
// loop, a 64 MiB limit with a holder and an OOM kill between the two
// readings, and an 80 write IOPS limit on vda with a direct-I/O dd. The
// readings are 4.839 s apart.
func TestCgroupLimitsHybridFixture(t *testing.T) {
	t.Parallel()
	h, a, b, s := limitsPair(t, "limits-hybrid")
	page := uint64(os.Getpagesize()) // statm counts pages
	c := s.Cgroups
	if c == nil || c.Scanned != 7 || c.Partial {
		t.Fatalf("cgroups: %+v", c)
	}
	h.NameLimitedProcesses(c)
	const cg = "/hostmcp-fixture-limits"
	root := "testdata/limits-hybrid/b/sys/fs/cgroup/"
	wantCPU := []ThrottledCgroup{{Cgroup: cg, Source: root + "cpu" + cg + "/cpu.stat", QuotaCPUs: 0.2, QuotaUS: 20000, PeriodUS: 100000,
		Periods: 49, ThrottledPeriods: 39, ThrottledPercent: 79.59, ThrottledMS: 759.739, ThrottledTotalMS: 1327.751,
		Processes: []CgroupProcess{{PID: 1468, Comm: "python3", CPUSeconds: 1.52, RSSBytes: 3391 * page}}}}
	if diff := cmp.Diff(wantCPU, c.CPUThrottled); diff != "" {
		t.Errorf("cpu throttled (-want +got):\n%s", diff)
	}
	wantMem := []MemoryLimitedCgroup{{Cgroup: cg, Source: root + "memory" + cg, LimitBytes: 64 << 20, UsageBytes: 49172480,
		WorkingSetBytes: 49172480, WorkingSetPercent: 73.27, OOMKills: 1, OOMKillsTotal: 1, LimitHits: 80,
		Processes: []CgroupProcess{{PID: 1474, Comm: "python3", CPUSeconds: 0.15, RSSBytes: 13635 * page}}}}
	if diff := cmp.Diff(wantMem, c.MemoryLimited); diff != "" {
		t.Errorf("memory limited (-want +got):\n%s", diff)
	}
	// 392 writes (1568 KiB) in 4.839 s: 81 a second, at its limit of 80.
	blkio := root + "blkio" + cg
	wantIO := []IOLimitedCgroup{{Cgroup: cg, Source: blkio, CgroupIODevice: CgroupIODevice{Device: "vda", MajorMinor: "254:0",
		WriteBytes: 2658304, Writes: 649, WriteBytesPerSec: 331806.96, WritesPerSec: 81.01,
		Limits: []IOLimit{{Kind: "write_iops", Limit: 80, Rate: 81.01, UsedPercent: 101.26, File: blkio + "/blkio.throttle.write_iops_device"}}},
		LimitUsedPercent: 101.26, Limit: "write_iops",
		Processes: []CgroupProcess{{PID: 1475, Comm: "dd", CPUSeconds: 0.03, RSSBytes: 419 * page}}}}
	if diff := cmp.Diff(wantIO, c.IOLimited); diff != "" {
		t.Errorf("io limited (-want +got):\n%s", diff)
	}
	// The kernel log holds three earlier OOM kills too; only the one
	// between the readings is this interval's.
	if s.Memory.OOMKills != 1 {
		t.Errorf("vmstat oom_kill grew by %d", s.Memory.OOMKills)
	}
	victims, err := h.LoggedOOMKills(a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := []OOMKill{{PID: 1860, Comm: "python3", Cgroup: cg, LimitCgroup: cg, Constraint: "CONSTRAINT_MEMCG",
		AnonRSSBytes: 17024 << 10, AtSeconds: 8883.202128}}
	if diff := cmp.Diff(want, victims); diff != "" {
		t.Errorf("victims (-want +got):\n%s", diff)
	}
}

// Hand-made (see testdata/README.md): a Kubernetes container on a pure
// cgroup v2 host with a 1.5 CPU quota, a 1 GiB memory.max and a 10 MiB/s
// write limit in io.max, beside a service with no limits, which is read
// and left out.
func TestCgroupLimitsV2Fixture(t *testing.T) {
	t.Parallel()
	h, _, _, s := limitsPair(t, "limits-v2")
	page := uint64(os.Getpagesize()) // statm counts pages
	c := s.Cgroups
	if c == nil || c.Scanned != 7 {
		t.Fatalf("cgroups: %+v", c)
	}
	h.NameLimitedProcesses(c)
	const cg = "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod9e1d.slice/cri-containerd-77c2.scope"
	dir := "testdata/limits-v2/b/sys/fs/cgroup" + cg
	procs := []CgroupProcess{{PID: 4242, Comm: "java", CPUSeconds: 84.23, RSSBytes: 234375 * page}, {PID: 4250, Comm: "log shipper", CPUSeconds: 1.5, RSSBytes: 4000 * page}}
	wantCPU := []ThrottledCgroup{{Cgroup: cg, Source: dir + "/cpu.stat", QuotaCPUs: 1.5, QuotaUS: 150000, PeriodUS: 100000,
		Periods: 20, ThrottledPeriods: 16, ThrottledPercent: 80, ThrottledMS: 1200, ThrottledTotalMS: 413500, Processes: procs}}
	if diff := cmp.Diff(wantCPU, c.CPUThrottled); diff != "" {
		t.Errorf("cpu throttled (-want +got):\n%s", diff)
	}
	wantMem := []MemoryLimitedCgroup{{Cgroup: cg, Source: dir, LimitBytes: 1 << 30, UsageBytes: 1020000000,
		WorkingSetBytes: 980000000, WorkingSetPercent: 91.27, OOMKills: 2, OOMKillsTotal: 3, LimitHits: 12, Processes: procs}}
	if diff := cmp.Diff(wantMem, c.MemoryLimited); diff != "" {
		t.Errorf("memory limited (-want +got):\n%s", diff)
	}
	wantIO := []IOLimitedCgroup{{Cgroup: cg, Source: dir, CgroupIODevice: CgroupIODevice{Device: "vda", MajorMinor: "254:0",
		ReadBytes: 1 << 20, WriteBytes: 520 << 20, Reads: 256, Writes: 133120, WriteBytesPerSec: 10 << 20, WritesPerSec: 2560,
		Limits: []IOLimit{{Kind: "write_bps", Limit: 10 << 20, Rate: 10 << 20, UsedPercent: 100, File: dir + "/io.max"}}},
		LimitUsedPercent: 100, Limit: "write_bps", Processes: procs}}
	if diff := cmp.Diff(wantIO, c.IOLimited); diff != "" {
		t.Errorf("io limited (-want +got):\n%s", diff)
	}
}

// The cgroup's own pressure files give perf_cgroup_summary its window;
// the v2 root's, which are the host's, give none.
func TestCgroupPressureWindowFixture(t *testing.T) {
	t.Parallel()
	host := func(side string) *Host {
		dir := "testdata/limits-v2/" + side
		return New(Roots{Proc: dir + "/proc", Sys: dir + "/sys", RootFS: dir})
	}
	const cg = "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod9e1d.slice/cri-containerd-77c2.scope"
	dir := "testdata/limits-v2/b/sys/fs/cgroup" + cg
	for _, tc := range []struct {
		path string
		want *CgroupPressureWindow
	}{
		{cg, &CgroupPressureWindow{
			From: []CgroupSource{{Hierarchy: "v2", Cgroup: cg, Files: []string{dir + "/cpu.pressure", dir + "/memory.pressure", dir + "/io.pressure"}}},
			CPU: &PSIWindow{SomePercent: 35, FullPercent: 25, SomeStallUS: 700000, FullStallUS: 500000, SomeTotalUS: 61700000, FullTotalUS: 52500000,
				SomeAvg10: 30, SomeAvg60: 20, FullAvg10: 25, FullAvg60: 15},
			Memory: &PSIWindow{SomePercent: 2.5, FullPercent: 1, SomeStallUS: 50000, FullStallUS: 20000, SomeTotalUS: 9150000, FullTotalUS: 8020000,
				SomeAvg10: 30, SomeAvg60: 20, FullAvg10: 25, FullAvg60: 15},
			IO: &PSIWindow{SomeTotalUS: 3300000, FullTotalUS: 3000000, SomeAvg10: 30, SomeAvg60: 20, FullAvg10: 25, FullAvg60: 15}}},
		{"/", nil},
	} {
		da, err := host("a").CgroupByPath(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		db, _ := host("b").CgroupByPath(tc.path)
		sa, sb := host("a").SampleCgroup(da), host("b").SampleCgroup(db)
		sa.Time, sb.Time = time.Unix(1_000_000, 0), time.Unix(1_000_002, 0)
		s, _ := host("b").BuildCgroupSummary(db, sa, sb)
		if diff := cmp.Diff(tc.want, s.PressureWindow); diff != "" {
			t.Errorf("%s: pressure window (-want +got):\n%s", tc.path, diff)
		}
	}
}
