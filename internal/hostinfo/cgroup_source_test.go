package hostinfo

import (
	"encoding/json"
	"testing"
)

// cgroupView is perf_cgroup_summary's answer as an agent reads it: the JSON,
// not the Go types, so these tests check what is shown.
type cgroupView struct {
	Path     string            `json:"path"`
	Paths    map[string]string `json:"paths"`
	CPU      *sectionView      `json:"cpu"`
	Memory   *sectionView      `json:"memory"`
	Pressure *sectionView      `json:"pressure"`
	PIDs     *sectionView      `json:"pids"`
	IO       *struct {
		From    []sourceView `json:"from"`
		Devices []ioDevView  `json:"devices"`
	} `json:"io"`
}

type sectionView struct {
	From []sourceView `json:"from"`
}

type sourceView struct {
	Hierarchy  string   `json:"hierarchy"`
	Controller string   `json:"controller"`
	Cgroup     string   `json:"cgroup"`
	HostWide   bool     `json:"host_wide"`
	Files      []string `json:"files"`
}

type ioDevView struct {
	Device       string        `json:"device"`
	MajorMinor   string        `json:"major_minor"`
	Reads        uint64        `json:"reads"`
	Writes       uint64        `json:"writes"`
	WriteBytes   uint64        `json:"write_bytes"`
	ReadsPerSec  float64       `json:"reads_per_sec"`
	WritesPerSec float64       `json:"writes_per_sec"`
	WriteBPS     float64       `json:"write_bytes_per_sec"`
	Limits       []ioLimitView `json:"limits"`
}

type ioLimitView struct {
	Kind        string  `json:"kind"`
	Limit       uint64  `json:"limit"`
	Rate        float64 `json:"rate"`
	UsedPercent float64 `json:"used_percent"`
	File        string  `json:"file"`
}

func viewOf(t *testing.T, s CgroupSummary) cgroupView {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var v cgroupView
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("the summary as an agent reads it: %v\n%s", err, b)
	}
	return v
}

// The blkio-hybrid capture (testdata/README.md): a process in a v1 blkio
// cgroup of its own and a memory cgroup, at the root of cpu, cpuacct and
// the unified tree. Path must be a cgroup it was read from, each section
// must say which, and the unified root's PSI must be the host's (health's
// fixture tests check it is not judged as the cgroup's).
func TestCgroupSummaryHybridScopes(t *testing.T) {
	t.Parallel()
	s, _ := cgroupPair(t, "blkio-hybrid", 10862)
	v := viewOf(t, s)
	const cg = "/hostmcp-blkio-fixture"
	if v.Path != cg {
		t.Errorf("path %q: want the deepest cgroup the process is in, %q", v.Path, cg)
	}
	if v.Paths["blkio"] != cg || v.Paths["memory"] != "/session" || v.Paths["v2"] != "/" || v.Paths["cpu"] != "/" || v.Paths["name=systemd"] != "" {
		t.Errorf("paths per hierarchy: %v", v.Paths)
	}
	if v.Pressure == nil || len(v.Pressure.From) != 1 || !v.Pressure.From[0].HostWide || v.Pressure.From[0].Cgroup != "/" {
		t.Errorf("pressure read from the unified root must say host-wide: %+v", v.Pressure)
	}
	if v.CPU == nil || len(v.CPU.From) != 2 || !v.CPU.From[0].HostWide || v.CPU.From[1].Controller != "cpuacct" {
		t.Errorf("cpu read from the roots of cpu and cpuacct must say host-wide: %+v", v.CPU)
	}
	if v.Memory == nil || len(v.Memory.From) != 1 || v.Memory.From[0].Cgroup != "/session" || v.Memory.From[0].HostWide {
		t.Errorf("memory from the process's memory cgroup: %+v", v.Memory)
	}
}

// A process's hierarchies may disagree: path is its deepest cgroup that is
// not a root, and paths then lists every hierarchy's.
func TestChoosePath(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		keys      []string
		paths     map[string]string
		want      string
		wantPaths bool
	}{
		{name: "v2 only", keys: []string{"v2"}, paths: map[string]string{"v2": "/system.slice/x.service"}, want: "/system.slice/x.service"},
		{name: "all agree", keys: []string{"v2", "cpu", "memory"},
			paths: map[string]string{"v2": "/docker/4a1b", "cpu": "/docker/4a1b", "memory": "/docker/4a1b"}, want: "/docker/4a1b"},
		{name: "v1 cgroup, v2 root", keys: []string{"blkio", "cpu", "v2"},
			paths: map[string]string{"blkio": "/limited", "cpu": "/", "v2": "/"}, want: "/limited", wantPaths: true},
		{name: "deeper wins", keys: []string{"blkio", "memory", "v2"},
			paths: map[string]string{"blkio": "/a", "memory": "/b/c", "v2": "/"}, want: "/b/c", wantPaths: true},
		{name: "tie: first listed", keys: []string{"blkio", "memory", "v2"},
			paths: map[string]string{"blkio": "/a", "memory": "/b", "v2": "/"}, want: "/a", wantPaths: true},
		{name: "all root", keys: []string{"cpu", "v2"}, paths: map[string]string{"cpu": "/", "v2": "/"}, want: "/"},
		{name: "nothing mounted", want: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, paths := choosePath(tc.keys, tc.paths)
			if got != tc.want || (paths != nil) != tc.wantPaths {
				t.Errorf("got %q %v, want %q (paths listed: %v)", got, paths, tc.want, tc.wantPaths)
			}
		})
	}
}
