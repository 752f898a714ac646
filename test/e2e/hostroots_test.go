package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// procsRunning is the runnable-task count of /proc/stat.
var procsRunning = regexp.MustCompile(`(?m)^procs_running \d+`)

// fixturePID is a process that exists only in the fixture's procfs.
const fixturePID = 3999999

// hostFixture is a procfs and sysfs of a host that is not this one: a
// copy of a few of this machine's real files (so their formats are the
// kernel's), with a load average, a run queue and a process no real host
// has. It returns the two roots.
func hostFixture(t *testing.T) (proc, sys string) {
	t.Helper()
	dir := t.TempDir()
	proc, sys = filepath.Join(dir, "proc"), filepath.Join(dir, "sys")
	copied := []string{"stat", "meminfo", "vmstat", "diskstats", "uptime", "cpuinfo",
		"net/dev", "net/snmp", "net/netstat", "sys/kernel/pid_max", "sys/kernel/osrelease"}
	for _, name := range copied {
		b, err := os.ReadFile(filepath.Join("/proc", name))
		if err != nil {
			t.Fatalf("copying the real /proc/%s: %v", name, err)
		}
		if name == "stat" { // a run queue no real host here has: 42 besides the reader
			b = procsRunning.ReplaceAll(b, []byte("procs_running 43"))
		}
		write(t, filepath.Join(proc, name), string(b))
	}
	uid := os.Geteuid()
	for name, body := range map[string]string{
		"loadavg": fmt.Sprintf("42.42 41.41 40.40 3/777 %d\n", fixturePID),
		// The fields proc_list reads, in the layout of proc_pid_stat(5): a
		// sleeping process, 250 ticks of CPU, 25 threads, 1000 pages.
		fmt.Sprintf("%d/stat", fixturePID):    fmt.Sprintf("%d (fixturedaemon) S 1 %[1]d %[1]d 0 -1 4194560 100 0 0 0 200 50 0 0 20 0 25 0 1000 104857600 1000 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n", fixturePID),
		fmt.Sprintf("%d/status", fixturePID):  fmt.Sprintf("Name:\tfixturedaemon\nTgid:\t%d\nPid:\t%[1]d\nPPid:\t1\nUid:\t%d\t%[2]d\t%[2]d\t%[2]d\nGid:\t0\t0\t0\t0\n", fixturePID, uid),
		fmt.Sprintf("%d/cmdline", fixturePID): "/usr/sbin/fixturedaemon\x00--fixture\x00",
		fmt.Sprintf("%d/comm", fixturePID):    "fixturedaemon\n",
	} {
		write(t, filepath.Join(proc, name), body)
	}
	if err := os.MkdirAll(filepath.Join(sys, "block"), 0o755); err != nil {
		t.Fatal(err)
	}
	return proc, sys
}

func write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// With [host] proc and sys pointed at a fixture tree, as in a container
// that mounts the host's /proc and /sys elsewhere, the host tools read the
// fixture: its load average in sys_snapshot, its run queue in
// perf_use_check, its one process in proc_list, and none of this
// machine's processes.
func TestHostRootsFromConfig(t *testing.T) {
	t.Parallel()
	proc, sys := hostFixture(t)
	e := newEnv(t, fmt.Sprintf("[host]\nproc = %q\nsys = %q\n", proc, sys))
	ctx := testCtx(t)
	cs := e.connectStdio(t, ctx)
	tools := listTools(t, ctx, cs)

	env, _ := call(t, ctx, cs, tools, "sys_snapshot", map[string]any{})
	var snap struct {
		LoadAvg    [3]float64 `json:"load_avg"`
		TasksTotal int        `json:"tasks_total"`
	}
	decodeData(t, env, &snap)
	if snap.LoadAvg != [3]float64{42.42, 41.41, 40.40} || snap.TasksTotal != 777 {
		t.Errorf("sys_snapshot read load %v and %d tasks; want the fixture's 42.42 41.41 40.4 and 777", snap.LoadAvg, snap.TasksTotal)
	}

	env, _ = call(t, ctx, cs, tools, "proc_list", map[string]any{"full": true})
	var list struct {
		TotalProcesses int `json:"total_processes"`
		Processes      []struct {
			PID     int    `json:"pid"`
			Name    string `json:"name"`
			Command string `json:"command"`
			Threads int    `json:"threads"`
		} `json:"processes"`
	}
	decodeData(t, env, &list)
	if list.TotalProcesses != 1 || len(list.Processes) != 1 || list.Processes[0].PID != fixturePID ||
		list.Processes[0].Threads != 25 || !strings.Contains(string(env.Data), "fixturedaemon --fixture") {
		t.Errorf("proc_list: want only the fixture's pid %d, fixturedaemon --fixture with 25 threads; got %s", fixturePID, env.Data)
	}

	env, _ = call(t, ctx, cs, tools, "perf_use_check", map[string]any{"interval_ms": 200})
	if !env.Success || !strings.Contains(string(env.Data), "run queue 42.0 on") {
		t.Errorf("perf_use_check does not show the fixture's run queue of 42: %s", env.Data)
	}
}

func decodeData(t *testing.T, env envelope, v any) {
	t.Helper()
	if !env.Success {
		t.Fatalf("the call failed: %+v", env.Error)
	}
	if err := json.Unmarshal(env.Data, v); err != nil {
		t.Fatalf("data: %v\n%s", err, env.Data)
	}
}
