package health

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

var (
	savedAt  = time.Date(2026, 11, 26, 6, 0, 0, 0, time.UTC)
	thisBoot = hostinfo.Identity{Hostname: "web-1", BootID: "boot-a"}
)

// baselineOf keeps a snapshot as a baseline saved at savedAt on thisBoot.
func baselineOf(s hostinfo.PerfSnapshot) Baseline {
	return Baseline{Name: "default", Saved: savedAt, Tool: "perf_snapshot", Host: thisBoot, Snapshot: s}
}

// with is quiet() changed by set.
func with(set func(s *hostinfo.PerfSnapshot)) hostinfo.PerfSnapshot {
	s := quiet()
	set(&s)
	return s
}

func row(c Comparison, resource, dimension string) *Delta {
	for i, d := range c.Resources {
		if d.Resource == resource && d.Dimension == dimension {
			return &c.Resources[i]
		}
	}
	return nil
}

func val(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// A busy CPU and a throttled cgroup that started after the baseline are
// new, with their evidence; the row of CPU utilisation shows then, now and
// the delta; nothing is gone.
func TestCompareNewSuspicions(t *testing.T) {
	t.Parallel()
	now := with(func(s *hostinfo.PerfSnapshot) {
		s.CPU.Utilization.Busy = 95
		s.Cgroups.CPUThrottled = []hostinfo.ThrottledCgroup{throttled(40, 300)}
	})
	c := Compare(baselineOf(quiet()), now, thisBoot, savedAt.Add(3*time.Hour+5*time.Minute))
	if c.StatusThen != StatusHealthy || c.StatusNow != StatusCritical || !c.SameBoot || c.Age != "3 h 5 min" || len(c.Notes) != 0 {
		t.Errorf("comparison header: %+v", c)
	}
	var got []string
	for _, s := range c.New {
		got = append(got, s.Severity+" "+s.Metric+" "+s.Subject)
	}
	want := []string{"critical cpu_throttled_percent /batch", "critical cpu_busy_percent "}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("new suspicions (-want +got):\n%s", diff)
	}
	if c.New[0].Cause == nil || c.New[0].Cause.Throttle == nil || c.New[0].Cause.Throttle.ThrottledMS != 300 {
		t.Errorf("the new throttle suspicion lost its evidence: %+v", c.New[0])
	}
	if len(c.Gone) != 0 || len(c.Persisting) != 0 {
		t.Errorf("gone %+v, persisting %+v; want none", c.Gone, c.Persisting)
	}
	u := row(c, "cpu", "utilization")
	if u == nil || u.Metric != "cpu_busy_percent" || val(u.Then) != 10.0 || val(u.Now) != 95.0 || val(u.Delta) != 85.0 ||
		u.StatusThen != StatusHealthy || u.StatusNow != StatusCritical {
		t.Errorf("cpu utilization row: %+v then %v now %v delta %v", u, val(u.Then), val(u.Now), val(u.Delta))
	}
	// The throttled cgroup did not exist then: its row has no value then.
	if s := row(c, "cpu", "saturation"); s == nil || s.Subject != "/batch" || s.Then != nil || val(s.Now) != 40.0 || s.Delta != nil {
		t.Errorf("cpu saturation row: %+v", s)
	}
	for _, has := range []string{`since baseline "default" (saved 3 h 5 min ago): healthy then, critical now`, "2 new: critical cpu saturation, critical cpu utilization", "0 gone"} {
		if !strings.Contains(c.Summary, has) {
			t.Errorf("summary %q lacks %q", c.Summary, has)
		}
	}
}

// What the baseline had and is over is gone, with its value now; what is
// in both persists with its severity then and now; a cgroup no longer
// read is gone with no value now. Rows follow the worse side, so a disk
// that was busy then shows though it is quiet now.
func TestCompareGoneAndPersisting(t *testing.T) {
	t.Parallel()
	then := with(func(s *hostinfo.PerfSnapshot) {
		s.IO.Devices[0].Utilization = 90
		s.Memory.AvailablePercent = 15
		s.Cgroups.CPUThrottled = []hostinfo.ThrottledCgroup{throttled(40, 300)}
	})
	now := with(func(s *hostinfo.PerfSnapshot) { s.Memory.AvailablePercent = 5 })
	c := Compare(baselineOf(then), now, thisBoot, savedAt.Add(90*time.Second))
	if len(c.New) != 0 {
		t.Errorf("new: %+v, want none", c.New)
	}
	gone := map[string]Change{}
	for _, g := range c.Gone {
		gone[g.Metric+" "+g.Subject] = g
	}
	if g, ok := gone["disk_utilization_percent vda"]; !ok || g.Then != 90 || val(g.Now) != 5.0 || g.SeverityThen != StatusCritical || g.SeverityNow != StatusHealthy {
		t.Errorf("gone disk: %+v (now %v)", g, val(g.Now))
	}
	if g, ok := gone["cpu_throttled_percent /batch"]; !ok || g.Now != nil || g.SeverityNow != "unknown" {
		t.Errorf("gone throttle: %+v", g)
	}
	if len(c.Persisting) != 1 || c.Persisting[0].Metric != "memory_available_percent" || c.Persisting[0].SeverityThen != StatusWarning ||
		c.Persisting[0].SeverityNow != StatusCritical || val(c.Persisting[0].Now) != 5.0 {
		t.Errorf("persisting: %+v", c.Persisting)
	}
	if d := row(c, "disk", "utilization"); d == nil || d.Subject != "vda" || val(d.Then) != 90.0 || val(d.Now) != 5.0 || val(d.Delta) != -85.0 || d.StatusNow != StatusHealthy {
		t.Errorf("disk utilization row: %+v", d)
	}
	if m := row(c, "memory", "utilization"); m == nil || val(m.Delta) != -10.0 {
		t.Errorf("memory utilization row: %+v", m)
	}
	if c.Age != "1 min" || !strings.Contains(c.Summary, "nothing new; 2 gone, 1 persisting") {
		t.Errorf("age %q, summary %q", c.Age, c.Summary)
	}
}

// A baseline of another boot, another host or another window still
// compares, and says so.
func TestCompareFlagsWhatIsNotLikeForLike(t *testing.T) {
	t.Parallel()
	b := baselineOf(quiet())
	rebooted := hostinfo.Identity{Hostname: "web-1", BootID: "boot-b"}
	c := Compare(b, quiet(), rebooted, savedAt.Add(26*time.Hour))
	if c.SameBoot || len(c.Notes) != 1 || !strings.Contains(c.Notes[0], "earlier boot") || !strings.Contains(c.Summary, "another boot") || c.Age != "1 d 2 h" {
		t.Errorf("rebooted: same_boot %v, notes %q, summary %q, age %q", c.SameBoot, c.Notes, c.Summary, c.Age)
	}
	if len(c.Resources) == 0 || c.StatusNow != StatusHealthy {
		t.Errorf("a rebooted baseline no longer compares: %+v", c)
	}
	other := with(func(s *hostinfo.PerfSnapshot) { s.IntervalMS = 5000 })
	c = Compare(b, other, hostinfo.Identity{Hostname: "db-2", BootID: "boot-a"}, savedAt.Add(-time.Minute))
	want := []string{`saved on host "web-1", and this is "db-2"`, "measured over 1.5 s and this over 5.0 s", "clock was set back"}
	if c.SameBoot || len(c.Notes) != len(want) {
		t.Fatalf("notes %q, want %d", c.Notes, len(want))
	}
	for i, w := range want {
		if !strings.Contains(c.Notes[i], w) {
			t.Errorf("note %q lacks %q", c.Notes[i], w)
		}
	}
}

func TestAge(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		-time.Second: "0 s", 45 * time.Second: "45 s", 12*time.Minute + 3*time.Second: "12 min", 3 * time.Hour: "3 h",
		3*time.Hour + 5*time.Minute: "3 h 5 min", 48 * time.Hour: "2 d", 52 * time.Hour: "2 d 4 h",
	} {
		if got := age(d); got != want {
			t.Errorf("age(%v) = %q, want %q", d, got, want)
		}
	}
}
