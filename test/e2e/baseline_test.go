package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// comparedView is the part of perf_use_check's answer a baseline adds.
type comparedView struct {
	Summary struct {
		Status string `json:"status"`
	} `json:"summary"`
	Baseline struct {
		Saved *struct {
			Name string `json:"name"`
			Kept int    `json:"kept"`
		} `json:"saved"`
		Compared *struct {
			Name      string `json:"name"`
			Age       string `json:"age"`
			SameBoot  bool   `json:"same_boot"`
			StatusNow string `json:"status_now"`
			New       []struct {
				Metric  string `json:"metric"`
				Subject string `json:"subject"`
				Cause   *struct {
					Kind     string `json:"kind"`
					CPUQuota *struct {
						ThrottledMS float64 `json:"throttled_ms"`
					} `json:"cpu_quota"`
				} `json:"cause"`
			} `json:"new"`
		} `json:"compared"`
	} `json:"baseline"`
}

// cpuStatThrottledMS reads a cgroup's throttled time, in ms, from cpu.stat
// (v1 throttled_time in ns, v2 throttled_usec).
func cpuStatThrottledMS(t *testing.T, dir string) float64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "cpu.stat"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		v, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "throttled_time":
			return v / 1e6
		case "throttled_usec":
			return v / 1e3
		}
	}
	t.Fatalf("%s/cpu.stat has no throttled time", dir)
	return 0
}

// An agent saves a baseline, the test then starts a busy loop under a
// 0.2 CPU quota, and the comparison with the baseline names the throttled
// cgroup as new, with no more throttled time than the test read from the
// cgroup around the call; hostmcp triage, on the same state directory,
// compares with that baseline and says so. A name not kept is NOT_FOUND
// with the names that are.
func TestBaselineComparisonSeesWhatStarted(t *testing.T) {
	testutil.ExclusiveLoad(t)
	testutil.RequireRoot(t)
	ctx := testCtx(t)
	e := newEnv(t, "")
	cs := e.connectStdio(t, ctx)
	tools := listTools(t, ctx, cs)

	env, _ := call(t, ctx, cs, tools, "perf_use_check", map[string]any{"interval_ms": 500, "save_as": "quiet"})
	var saved comparedView
	if err := json.Unmarshal(env.Data, &saved); err != nil || !env.Success || saved.Baseline.Saved == nil || saved.Baseline.Saved.Name != "quiet" {
		t.Fatalf("saving a baseline: %v %+v", err, env)
	}

	files := map[string]string{"cpu.cfs_period_us": "100000", "cpu.cfs_quota_us": "20000", "cpu.shares": "262144"}
	if _, err := os.Stat("/sys/fs/cgroup/cpu"); err != nil {
		files = map[string]string{"cpu.max": "20000 100000", "cpu.weight": "10000"}
	}
	dir, move := testutil.CgroupDir(t, "cpu", files)
	spin := exec.Command("/bin/sh", "-c", "while :; do :; done")
	spin.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := spin.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = spin.Process.Kill(); _ = spin.Wait() })
	move(spin.Process.Pid)

	before := cpuStatThrottledMS(t, dir)
	env, _ = call(t, ctx, cs, tools, "perf_use_check", map[string]any{"interval_ms": 1500, "compare_to": "quiet"})
	after := cpuStatThrottledMS(t, dir)
	var got comparedView
	if err := json.Unmarshal(env.Data, &got); err != nil || !env.Success || got.Baseline.Compared == nil {
		t.Fatalf("comparing: %v %s", err, env.Data)
	}
	c := got.Baseline.Compared
	if c.Name != "quiet" || !c.SameBoot || c.StatusNow != got.Summary.Status || !strings.HasSuffix(c.Age, " s") {
		t.Errorf("comparison: name %q, same boot %v, status now %q (verdict %q), age %q", c.Name, c.SameBoot, c.StatusNow, got.Summary.Status, c.Age)
	}
	cg := "/" + filepath.Base(dir)
	found := false
	for _, s := range c.New {
		if s.Metric == "cpu_throttled_percent" && s.Subject == cg {
			found = true
			if s.Cause == nil || s.Cause.Kind != "cpu_quota" || s.Cause.CPUQuota == nil ||
				s.Cause.CPUQuota.ThrottledMS <= 0 || s.Cause.CPUQuota.ThrottledMS > after-before+0.002 {
				t.Errorf("new throttling of %s: %+v; the test read %.3f ms throttled around the call", cg, s.Cause, after-before)
			}
		}
	}
	if !found {
		t.Fatalf("cgroup %s, throttled %.0f ms around the call, is not new since the baseline: %s", cg, after-before, env.Data)
	}

	env, _ = call(t, ctx, cs, tools, "perf_snapshot", map[string]any{"compare_to": "nope"})
	if env.Success || env.Error == nil || env.Error.Code != "NOT_FOUND" || !strings.Contains(env.Error.Message, "quiet") {
		t.Errorf("compare_to a name not kept: %+v", env.Error)
	}

	out, code := runCLI(t, e.args("triage")...)
	for _, has := range []string{`Baseline  since baseline "quiet" (saved `, "cpu_throttled_percent (" + cg + ")"} {
		if code != 0 || !strings.Contains(out, has) {
			t.Errorf("triage (exit %d) lacks %q:\n%s", code, has, out)
		}
	}
}

// With no baseline kept, triage says how to keep one.
func TestTriageWithoutBaselineSaysHowToKeepOne(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "")
	out, code := runCLI(t, e.args("triage")...)
	if code != 0 || !strings.Contains(out, `Baseline  none kept`) || !strings.Contains(out, `hostmcp call perf_snapshot '{"save_as":"default"}'`) {
		t.Errorf("triage without a baseline (exit %d):\n%s", code, out)
	}
}
