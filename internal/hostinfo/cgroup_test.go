package hostinfo

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// cgroupPair finds pid's cgroup in the fixture trees name/a and name/b and
// summarises the two samples as if taken 2 s apart.
func cgroupPair(t *testing.T, name string, pid int) (CgroupSummary, []string) {
	t.Helper()
	host := func(s string) *Host {
		dir := "testdata/" + name + "/" + s
		return New(Roots{Proc: dir + "/proc", Sys: dir + "/sys", RootFS: dir})
	}
	ha, hb := host("a"), host("b")
	da, err := ha.CgroupOfPID(pid)
	if err != nil {
		t.Fatal(err)
	}
	db, err := hb.CgroupOfPID(pid)
	if err != nil {
		t.Fatal(err)
	}
	a, b := ha.SampleCgroup(da), hb.SampleCgroup(db)
	a.Time = time.Unix(1_000_000, 0)
	b.Time = a.Time.Add(2 * time.Second)
	return hb.BuildCgroupSummary(db, a, b)
}

// A hand-made cgroup v2 pod container (see testdata/README.md): 1.5 CPUs of
// quota used in full and throttled, memory at 95% of its limit.
func TestCgroupSummaryV2Fixture(t *testing.T) {
	t.Parallel()
	s, w := cgroupPair(t, "cgroup-v2", 3120)
	if len(w) > 0 {
		t.Errorf("warnings: %q", w)
	}
	const path = "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod7f3c.slice/cri-containerd-4a1b.scope"
	if s.Mode != "v2" || s.Path != path || s.IntervalMS != 2000 {
		t.Errorf("dirs: %+v", s.CgroupDirs)
	}
	quota := 1.5
	wantCPU := &CgroupCPU{Source: "v2", UsagePercent: 150, UsageSeconds: 84.23, QuotaCPUs: &quota, QuotaUS: 150000, PeriodUS: 100000,
		NrPeriods: 50020, NrThrottled: 9015, ThrottledSeconds: 413.2, ThrottledPercent: 75, ThrottledMSPerS: 600}
	if diff := cmp.Diff(wantCPU, s.CPU, cmpopts.IgnoreFields(CgroupCPU{}, "From")); diff != "" {
		t.Errorf("cpu (-want +got):\n%s", diff)
	}
	limit := uint64(1 << 30)
	if m := s.Memory; m == nil || m.Source != "v2" || m.CurrentBytes != 1020054528 || m.LimitBytes == nil || *m.LimitBytes != limit ||
		m.LimitPercent != 95 || m.OOMEvents != 2 || m.OOMKills != 1 || m.MaxEvents != 342 || m.Stat["anon"] != 912261120 || m.Stat["pgmajfault"] != 1204 {
		t.Errorf("memory: %+v", m)
	}
	if p := s.PIDs; p == nil || p.Current != 37 || p.Max == nil || *p.Max != 512 {
		t.Errorf("pids: %+v", p)
	}
	if s.Pressure == nil || s.Pressure.Memory == nil || s.Pressure.Memory.Some.Avg10 != 31.4 || s.Pressure.CPU.Full == nil {
		t.Errorf("pressure: %+v", s.Pressure)
	}
	dir := "testdata/cgroup-v2/b/sys/fs/cgroup" + path
	wantIO := &CgroupIO{
		From: []CgroupSource{{Hierarchy: "v2", Cgroup: path, Files: []string{dir + "/io.stat", dir + "/io.max"}}},
		Devices: []CgroupIODevice{
			{Device: "254:0", MajorMinor: "254:0", ReadBytes: 125829120, WriteBytes: 52428800, Reads: 2500, Writes: 1000,
				ReadBytesPerSec: 10485760, ReadsPerSec: 250,
				Limits: []IOLimit{{Kind: "read_bps", Limit: 10485760, Rate: 10485760, UsedPercent: 100, File: dir + "/io.max"}}},
			{Device: "8:16", MajorMinor: "8:16", Limits: []IOLimit{{Kind: "write_iops", Limit: 120, File: dir + "/io.max"}}},
		}}
	if diff := cmp.Diff(wantIO, s.IO); diff != "" {
		t.Errorf("io (-want +got):\n%s", diff)
	}
	for name, from := range map[string][]CgroupSource{"cpu": s.CPU.From, "memory": s.Memory.From, "pids": s.PIDs.From, "pressure": s.Pressure.From} {
		if len(from) != 1 || from[0].Hierarchy != "v2" || from[0].Cgroup != path || from[0].HostWide || len(from[0].Files) < 2 {
			t.Errorf("%s from %+v", name, from)
		}
	}
}

// Captured on this kind of host (cgroup hybrid, v1 controllers and PSI from
// the v2 tree): a busy loop under a 0.5 CPU quota, throttled in 13 of 18
// periods.
func TestCgroupSummaryHybridFixture(t *testing.T) {
	t.Parallel()
	s, w := cgroupPair(t, "cgroup-hybrid", 19917)
	if len(w) > 0 {
		t.Errorf("warnings: %q", w)
	}
	if s.Mode != "hybrid" || s.Path != "/hostmcp-fixture" || s.V2 == "" || s.V1["memory"] == "" || s.V1["cpuacct"] == "" {
		t.Errorf("dirs: %+v", s.CgroupDirs)
	}
	quota := 0.5
	wantCPU := &CgroupCPU{Source: "v1", UsagePercent: 37.96, UsageSeconds: 0.88, QuotaCPUs: &quota, QuotaUS: 50000, PeriodUS: 100000,
		NrPeriods: 29, NrThrottled: 13, ThrottledSeconds: 0.48, ThrottledPercent: 72.22, ThrottledMSPerS: 241.5}
	if diff := cmp.Diff(wantCPU, s.CPU, cmpopts.IgnoreFields(CgroupCPU{}, "From")); diff != "" {
		t.Errorf("cpu (-want +got):\n%s", diff)
	}
	fx := "testdata/cgroup-hybrid/b/sys/fs/cgroup/"
	wantFrom := []CgroupSource{
		{Hierarchy: "v1", Controller: "cpu", Cgroup: "/hostmcp-fixture", Files: []string{fx + "cpu/hostmcp-fixture/cpu.stat",
			fx + "cpu/hostmcp-fixture/cpu.cfs_quota_us", fx + "cpu/hostmcp-fixture/cpu.cfs_period_us"}},
		{Hierarchy: "v1", Controller: "cpuacct", Cgroup: "/hostmcp-fixture", Files: []string{fx + "cpuacct/hostmcp-fixture/cpuacct.usage"}},
	}
	if diff := cmp.Diff(wantFrom, s.CPU.From); diff != "" {
		t.Errorf("cpu from (-want +got):\n%s", diff)
	}
	limit := uint64(256 << 20)
	wantMem := &CgroupMemory{Source: "v1", CurrentBytes: 733184, LimitBytes: &limit, LimitPercent: 0.27}
	if diff := cmp.Diff(wantMem, s.Memory, cmpopts.IgnoreFields(CgroupMemory{}, "Stat", "From")); diff != "" {
		t.Errorf("memory (-want +got):\n%s", diff)
	}
	if s.Memory.Stat["rss"] != 286720 || s.Memory.Stat["total_cache"] != 114688 {
		t.Errorf("memory.stat highlights: %v", s.Memory.Stat)
	}
	if p := s.PIDs; p == nil || p.Current != 2 || p.Max == nil || *p.Max != 64 {
		t.Errorf("pids: %+v", p)
	}
	if s.Pressure == nil || s.Pressure.CPU == nil || s.Pressure.CPU.Some.Avg10 != 19.12 {
		t.Errorf("pressure from the v2 tree: %+v", s.Pressure)
	}
	if s.IO == nil || len(s.IO.Devices) != 0 || len(s.IO.From) != 1 || s.IO.From[0].Controller != "blkio" {
		t.Errorf("the captured blkio counters are empty, and no limit was set: %+v", s.IO)
	}
	if s.Pressure.From[0].HostWide || s.Pressure.From[0].Cgroup != "/hostmcp-fixture" {
		t.Errorf("the cgroup's own pressure: %+v", s.Pressure.From)
	}
}

// A cgroup path, or a directory under a mount, finds the same cgroup; an
// unknown one and ".." are refused.
func TestCgroupByPathFixture(t *testing.T) {
	t.Parallel()
	h := New(Roots{Proc: "testdata/cgroup-hybrid/b/proc", Sys: "testdata/cgroup-hybrid/b/sys"})
	for _, p := range []string{"/hostmcp-fixture", "hostmcp-fixture", "/sys/fs/cgroup/memory/hostmcp-fixture"} {
		d, err := h.CgroupByPath(p)
		if err != nil || d.Path != "/hostmcp-fixture" || d.Mode != "hybrid" || d.V1["cpu"] == "" || d.V1["pids"] == "" {
			t.Errorf("%q: %+v %v", p, d, err)
		}
	}
	for _, p := range []string{"/nope", "/hostmcp-fixture/../.."} {
		if _, err := h.CgroupByPath(p); err == nil {
			t.Errorf("%q found", p)
		}
	}
	if _, err := h.CgroupOfPID(4242); err == nil {
		t.Error("a pid not in the fixture found")
	}
}
