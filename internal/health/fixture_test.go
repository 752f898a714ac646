package health

import (
	"testing"
	"time"

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
