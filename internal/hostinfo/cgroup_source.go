package hostinfo

import (
	"path/filepath"
	"strings"
)

// CgroupSource says where a section of a cgroup summary was read: which
// hierarchy, which cgroup in it, which files. On v1 and hybrid hosts a
// process sits in one cgroup per hierarchy, often the root in most of them;
// a root cgroup's numbers are the whole host's, and HostWide says so, so
// that they are never taken for the cgroup's own.
type CgroupSource struct {
	Hierarchy  string `json:"hierarchy"`            // "v1" or "v2"
	Controller string `json:"controller,omitempty"` // v1: the controller whose hierarchy was read
	Cgroup     string `json:"cgroup"`               // the cgroup's path in that hierarchy
	// HostWide is set when Cgroup is the root of the hierarchy as hostmcp
	// sees it: the whole host (or, in a cgroup namespace, the namespace).
	HostWide bool     `json:"host_wide,omitempty"`
	Files    []string `json:"files"` // full paths of the files the numbers come from
}

// cgroupIn is d's cgroup path in hierarchy key: "v2" or a v1 controller.
func (d CgroupDirs) cgroupIn(key string) string {
	if p, ok := d.Paths[key]; ok {
		return p
	}
	return d.Path
}

// source describes the files names under dir, the directory of d in
// hierarchy key, listing those that exist.
func (d CgroupDirs) source(key, dir string, names ...string) CgroupSource {
	s := CgroupSource{Hierarchy: "v2", Cgroup: d.cgroupIn(key), Files: []string{}}
	if key != "v2" {
		s.Hierarchy, s.Controller = "v1", key
	}
	s.HostWide = s.Cgroup == "/"
	for _, n := range names {
		if p := filepath.Join(dir, n); dir != "" && exists(p) {
			s.Files = append(s.Files, p)
		}
	}
	return s
}

// found keeps the sources that have files.
func found(ss ...CgroupSource) []CgroupSource {
	out := []CgroupSource{}
	for _, s := range ss {
		if len(s.Files) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// attachSources says where each section of s was read, following the
// choices the readers make (cgroup_read.go): the v2 directory when it has
// the controller's files, else the controller's v1 hierarchy.
func (d CgroupDirs) attachSources(s *CgroupSummary) {
	if c := s.CPU; c != nil && c.Source == "v2" {
		c.From = found(d.source("v2", d.V2, "cpu.stat", "cpu.max"))
	} else if c != nil {
		acct := "cpuacct"
		if d.V1[acct] == "" {
			acct = "cpu"
		}
		c.From = found(d.source("cpu", d.V1["cpu"], "cpu.stat", "cpu.cfs_quota_us", "cpu.cfs_period_us"),
			d.source(acct, d.V1[acct], "cpuacct.usage"))
	}
	if m := s.Memory; m != nil && m.Source == "v2" {
		m.From = found(d.source("v2", d.V2, "memory.current", "memory.max", "memory.events", "memory.stat"))
	} else if m != nil {
		m.From = found(d.source("memory", d.V1["memory"], "memory.usage_in_bytes", "memory.limit_in_bytes",
			"memory.oom_control", "memory.failcnt", "memory.stat"))
	}
	if p := s.Pressure; p != nil {
		p.From = found(d.source("v2", d.V2, "cpu.pressure", "memory.pressure", "io.pressure"))
	}
	if p := s.PressureWindow; p != nil {
		p.From = found(d.source("v2", d.V2, "cpu.pressure", "memory.pressure", "io.pressure"))
	}
	if p := s.PIDs; p != nil {
		key, dir := "pids", d.V1["pids"]
		if d.V2 != "" && exists(filepath.Join(d.V2, "pids.current")) {
			key, dir = "v2", d.V2
		}
		p.From = found(d.source(key, dir, "pids.current", "pids.max"))
	}
}

// choosePath picks the one path that stands for a process's cgroups when
// its hierarchies disagree: the deepest that is not the root (the cgroup
// the process was put in on purpose), the first in keys on a tie. paths
// comes back only when they disagree, so an agent sees every hierarchy's.
func choosePath(keys []string, paths map[string]string) (string, map[string]string) {
	if len(keys) == 0 {
		return "", nil
	}
	best, agree := "", true
	for _, k := range keys {
		p := paths[k]
		if p != paths[keys[0]] {
			agree = false
		}
		if best == "" || depth(p) > depth(best) {
			best = p
		}
	}
	if agree {
		return best, nil
	}
	return best, paths
}

func depth(p string) int {
	if p == "/" {
		return 0
	}
	return strings.Count(p, "/")
}
