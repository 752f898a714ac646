package health

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// The fixtures hostinfo's readers are tested on (see
// internal/hostinfo/testdata/README.md), read through its public API:
// here they are judged.
const fixtures = "../hostinfo/testdata/"

// perfPair reads testdata/perf-pair, captured twice from a live host with
// a busy loop, a direct-I/O dd and a TCP stream over lo running, and
// dates the readings 2 s apart.
func perfPair(t *testing.T) (a, b hostinfo.Counters, g hostinfo.Gauges) {
	t.Helper()
	t0 := time.Unix(1_000_000, 0)
	read := func(dir string, at time.Time) (hostinfo.Counters, hostinfo.Gauges) {
		h := hostinfo.New(hostinfo.Roots{Proc: dir + "/proc", Sys: dir + "/sys", RootFS: dir})
		c, w, err := h.ReadCounters(nil)
		if err != nil || len(w) > 0 {
			t.Fatalf("%s counters: %v %q", dir, err, w)
		}
		g, w, err := h.ReadGauges(nil)
		if err != nil || len(w) > 0 {
			t.Fatalf("%s gauges: %v %q", dir, err, w)
		}
		return c.At(at), g
	}
	a, _ = read(fixtures+"perf-pair/a", t0)
	b, g = read(fixtures+"perf-pair/b", t0.Add(2*time.Second))
	return a, b, g
}

// The USE check of the captured pair names the saturated CPU first; its
// network is healthy.
func TestPerfPairVerdicts(t *testing.T) {
	t.Parallel()
	a, b, g := perfPair(t)
	use := AnalyzeUSE(hostinfo.BuildPerfSnapshot(hostinfo.SnapshotInput{Before: a, After: b, Gauges: g}))
	if use.Summary.Status != "critical" || len(use.Summary.TopSuspicions) == 0 || use.Summary.TopSuspicions[0].Resource != "cpu" {
		t.Errorf("USE verdict: %+v", use.Summary)
	}
	nh, err := hostinfo.BuildNetHealth(a, b, g, "lo", true)
	if err != nil {
		t.Fatal(err)
	}
	if s := AnalyzeNet(&nh); s.Status != "healthy" {
		t.Errorf("network verdict: %+v", s)
	}
}

// cgroupPair summarises pid's cgroup in the fixture trees name/a and
// name/b as if sampled 2 s apart.
func cgroupPair(t *testing.T, name string, pid int) hostinfo.CgroupSummary {
	t.Helper()
	host := func(s string) *hostinfo.Host {
		dir := fixtures + name + "/" + s
		return hostinfo.New(hostinfo.Roots{Proc: dir + "/proc", Sys: dir + "/sys", RootFS: dir})
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
	sa, sb := ha.SampleCgroup(da), hb.SampleCgroup(db)
	sa.Time = time.Unix(1_000_000, 0)
	sb.Time = sa.Time.Add(2 * time.Second)
	s, _ := hb.BuildCgroupSummary(db, sa, sb)
	return s
}

// The v2 pod container, 1.5 CPUs used in full and throttled, and the
// hybrid host's busy loop under a 0.5 CPU quota: both are throttled.
func TestCgroupFixtureVerdicts(t *testing.T) {
	t.Parallel()
	v2 := cgroupPair(t, "cgroup-v2", 3120)
	if s := AnalyzeCgroup(&v2); s.Status != "critical" || !hasSuspicion(s, "cgroup", "saturation") {
		t.Errorf("v2 verdict: %+v", s)
	}
	hybrid := cgroupPair(t, "cgroup-hybrid", 19917)
	if s := AnalyzeCgroup(&hybrid); !hasSuspicion(s, "cgroup", "saturation") {
		t.Errorf("throttling should be a suspicion: %+v", s)
	}
}

func hasSuspicion(s UseSummary, resource, dim string) bool {
	for _, x := range s.TopSuspicions {
		if x.Resource == resource && x.Dimension == dim {
			return true
		}
	}
	return false
}

// The blkio-hybrid capture: two direct-I/O writers at their cgroup's 80
// write IOPS limit on vda. The limit is named as the cause of the slow
// writes; the unified root's PSI, which is the host's, is never judged as
// the cgroup's.
func TestCgroupBlkioFixtureVerdict(t *testing.T) {
	t.Parallel()
	c := cgroupPair(t, "blkio-hybrid", 10862)
	s := AnalyzeCgroup(&c)
	var named bool
	for _, x := range s.TopSuspicions {
		named = named || x.Resource == "cgroup" && x.Metric == ThreshIOLimit.Metric && x.Severity == StatusCritical && x.Value == 100 &&
			x.Detail == "vda writes 80.0 I/Os/s against a limit of 80 in blkio.throttle.write_iops_device (100%): its I/O waits on the cgroup's throttle"
		if strings.Contains(x.Detail, "PSI") && (x.Resource == "cgroup" || !strings.Contains(x.Detail, "host-wide")) {
			t.Errorf("host-wide pressure labelled the cgroup's: %+v", x)
		}
	}
	if !named {
		t.Errorf("writes at their 80 IOPS limit must be the named cause: %q %+v", s.Verdict, s.TopSuspicions)
	}
}

// The hand-made v2 pod reads 10 MiB/s under an io.max rbps of 10 MiB/s; the
// 120 IOPS write limit of a device it does not use is shown, not blamed.
func TestCgroupIOLimitV2FixtureVerdict(t *testing.T) {
	t.Parallel()
	c := cgroupPair(t, "cgroup-v2", 3120)
	var got []string
	for _, x := range AnalyzeCgroup(&c).TopSuspicions {
		if x.Metric == ThreshIOLimit.Metric {
			got = append(got, x.Severity+": "+x.Detail)
		}
	}
	want := []string{"critical: 254:0 reads 10.0 MiB/s against a limit of 10.0 MiB/s in io.max rbps (100%): its I/O waits on the cgroup's throttle"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("io limit suspicions (-want +got):\n%s", diff)
	}
}
