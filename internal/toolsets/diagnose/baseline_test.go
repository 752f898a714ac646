package diagnose

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// setWithStore is the perf toolset over the real host with a fresh state
// store for its baselines.
func setWithStore(t *testing.T) (*Set, *store.Store) {
	t.Helper()
	st, err := store.Open(context.Background(), &store.Options{Path: filepath.Join(t.TempDir(), "hostmcp.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return New(&Deps{Host: hostinfo.New(hostinfo.Roots{}), Baselines: st}), st
}

// Names are checked, and the baseline to compare with is found, before the
// host is sampled; a wrong name gets its code and the names there are.
func TestBaselineArgumentsRefused(t *testing.T) {
	set, _ := setWithStore(t)
	ctx := context.Background()
	refused := func(d *tool.Def, args map[string]any, code tool.Code, has ...string) {
		t.Helper()
		_, terr := tooltest.Run[map[string]any](t, ctx, d, "test", args)
		if terr == nil || terr.Code != code {
			t.Fatalf("%s(%v) = %v, want %s", d.Spec.Name, args, terr, code)
		}
		for _, h := range has {
			if !strings.Contains(terr.Message+" "+terr.Suggestion, h) {
				t.Errorf("%s(%v): %q / %q lacks %q", d.Spec.Name, args, terr.Message, terr.Suggestion, h)
			}
		}
	}
	refused(set.snapshotTool(), map[string]any{"save_as": "a b"}, tool.InvalidArgument, `save_as "a b" is not a baseline name`, `"default"`)
	refused(set.useCheck(), map[string]any{"compare_to": "../x"}, tool.InvalidArgument, `compare_to "../x"`)
	refused(set.useCheck(), map[string]any{"compare_to": strings.Repeat("x", 300)}, tool.InvalidArgument, "(300 bytes)")
	refused(set.snapshotTool(), map[string]any{"compare_to": "default"}, tool.NotFound, "none is kept yet", `{"save_as": "default"}`)
	tooltest.MustRun[map[string]any](t, ctx, set.snapshotTool(), map[string]any{"interval_ms": 100, "save_as": "before-deploy"})
	refused(set.useCheck(), map[string]any{"compare_to": "default"}, tool.NotFound, "kept, newest first: before-deploy")

	noStore := New(&Deps{Host: hostinfo.New(hostinfo.Roots{})})
	refused(noStore.useCheck(), map[string]any{"save_as": "default"}, tool.FeatureDisabled, "state store")
}

// A baseline saved by perf_snapshot compares in perf_use_check: the same
// boot, every resource judged, and the status now is the verdict's own.
// Saving under a name kept replaces it; the cap is reported.
func TestBaselineSaveThenCompare(t *testing.T) {
	set, st := setWithStore(t)
	ctx := context.Background()
	type snapOut struct {
		hostinfo.PerfSnapshot
		Baseline *health.BaselineResult `json:"baseline"`
	}
	saved := tooltest.MustRun[snapOut](t, ctx, set.snapshotTool(), map[string]any{"interval_ms": 200, "save_as": "default", "include_per_device": false})
	if b := saved.Baseline; b == nil || b.Saved == nil || b.Saved.Name != "default" || b.Saved.Kept != 1 || b.Compared != nil {
		t.Fatalf("saving: %+v", saved.Baseline)
	}
	kept, err := st.LoadBaseline(ctx, "default")
	if err != nil {
		t.Fatal(err)
	}
	boot, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if kept.Tool != "perf_snapshot" || kept.BootID != strings.TrimSpace(string(boot)) || !strings.Contains(string(kept.Data), `"devices":[{`) && hasDisks(t) {
		t.Errorf("kept: tool %s, boot %s (want %s); the devices this answer left out must still be kept", kept.Tool, kept.BootID, boot)
	}

	type useOut struct {
		health.UseCheck
		Baseline *health.BaselineResult `json:"baseline"`
	}
	u := tooltest.MustRun[useOut](t, ctx, set.useCheck(), map[string]any{"interval_ms": 200, "compare_to": "default", "save_as": "default"})
	c := u.Baseline.Compared
	if c == nil || c.Name != "default" || !c.SameBoot || c.SavedBy != "perf_snapshot" || c.StatusNow != u.Summary.Status || len(c.Resources) < 5 {
		t.Fatalf("comparison: %+v", c)
	}
	if len(c.New) != 0 && c.StatusNow == health.StatusHealthy {
		t.Errorf("new suspicions on a healthy verdict: %+v", c.New)
	}
	if u.Baseline.Saved == nil || u.Baseline.Saved.Kept != 1 {
		t.Errorf("saving under the same name: %+v", u.Baseline.Saved)
	}
	if again, _ := st.LoadBaseline(ctx, "default"); again.Tool != "perf_use_check" {
		t.Errorf("the baseline was not replaced: saved by %s", again.Tool)
	}
}

func hasDisks(t *testing.T) bool {
	b, err := os.ReadFile("/proc/diskstats")
	return err == nil && len(b) > 0
}

// A cgroup throttled by its quota after the baseline was saved is new in
// the comparison, with the throttled time the test reads from its cpu.stat
// around the call.
func TestScenarioBaselineSeesNewThrottling(t *testing.T) {
	testutil.ExclusiveLoad(t)
	testutil.RequireRoot(t)
	set, _ := setWithStore(t)
	ctx := context.Background()
	tooltest.MustRun[map[string]any](t, ctx, set.useCheck(), map[string]any{"interval_ms": 500, "save_as": "quiet"})

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
	type useOut struct {
		health.UseCheck
		Baseline *health.BaselineResult `json:"baseline"`
	}
	u := tooltest.MustRun[useOut](t, ctx, set.useCheck(), map[string]any{"interval_ms": 1500, "compare_to": "quiet"})
	after := float64(readKeyedFile(t, stat, key)) / unit

	cg := "/" + filepath.Base(dir)
	var found *health.Suspicion
	for i, s := range u.Baseline.Compared.New {
		if s.Metric == health.ThreshThrottled.Metric && s.Subject == cg {
			found = &u.Baseline.Compared.New[i]
		}
	}
	if found == nil || found.Cause == nil || found.Cause.Throttle == nil {
		t.Fatalf("cgroup %s throttled %.0f ms around the call is not new since the baseline: %+v", cg, after-before, u.Baseline.Compared)
	}
	if ms := found.Cause.Throttle.ThrottledMS; ms <= 0 || ms > after-before+0.002 {
		t.Errorf("new throttling of %.3f ms in the window; the test read %.3f ms around the call", ms, after-before)
	}
}
