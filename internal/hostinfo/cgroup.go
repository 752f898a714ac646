package hostinfo

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ErrCgroupNotFound is returned when no hierarchy has the cgroup asked for.
var ErrCgroupNotFound = errors.New("cgroup not found")

// ErrPIDNotFound is returned when the process asked about does not exist.
var ErrPIDNotFound = errors.New("process not found")

// CgroupDirs are the directories one cgroup's files are read from: on v2 one
// directory holds every controller; on v1 and hybrid hosts each controller
// has its own hierarchy, and the v2 directory (if mounted) still has PSI.
type CgroupDirs struct {
	// Path is the cgroup's path. A process whose hierarchies disagree (v1
	// and hybrid hosts) is named by its deepest cgroup that is not a root,
	// and Paths then gives each hierarchy's ("v2" or the v1 controller).
	Path  string            `json:"path"`
	Paths map[string]string `json:"paths,omitempty"`
	Mode  string            `json:"mode"` // "v1", "v2" or "hybrid"
	V2    string            `json:"v2,omitempty"`
	V1    map[string]string `json:"v1,omitempty"` // controller -> directory
}

// CgroupOfPID finds the directories of the cgroups pid belongs to.
func (h *Host) CgroupOfPID(pid int) (CgroupDirs, error) {
	b, err := os.ReadFile(h.procPath(strconv.Itoa(pid), "cgroup"))
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrInvalid) {
		return CgroupDirs{}, fmt.Errorf("pid %d: %w", pid, ErrPIDNotFound)
	}
	if err != nil {
		return CgroupDirs{}, fmt.Errorf("reading the cgroups of pid %d: %w", pid, err)
	}
	lines, err := parseProcCgroup(b)
	if err != nil {
		return CgroupDirs{}, err
	}
	mounts, err := h.cgroupMounts()
	if err != nil {
		return CgroupDirs{}, err
	}
	d := CgroupDirs{V1: map[string]string{}}
	var keys []string // the hierarchies with resource controllers, as listed
	paths := map[string]string{}
	for _, l := range lines {
		if len(l.Controllers) == 0 && l.Hierarchy == 0 {
			if m := findMount(mounts, 2, ""); m != nil {
				d.V2 = underMount(m, l.Path)
				keys, paths["v2"] = append(keys, "v2"), l.Path
			}
			continue
		}
		for _, c := range l.Controllers {
			if m := findMount(mounts, 1, c); m != nil {
				d.V1[c] = underMount(m, l.Path)
				if !strings.HasPrefix(c, "name=") { // a named hierarchy has no resources
					keys, paths[c] = append(keys, c), l.Path
				}
			}
		}
	}
	d.Path, d.Paths = choosePath(keys, paths)
	d.Mode = cgMode(d)
	return d, nil
}

// CgroupByPath finds the directories of a cgroup given by its path inside the
// hierarchies ("/system.slice/x.service"), or by a directory under a cgroup
// mount ("/sys/fs/cgroup/cpu/x"). ".." is refused.
func (h *Host) CgroupByPath(p string) (CgroupDirs, error) {
	if slices.Contains(strings.Split(p, "/"), "..") {
		return CgroupDirs{}, fmt.Errorf("cgroup path %q: \"..\" is not allowed: %w", p, ErrCgroupNotFound)
	}
	mounts, err := h.cgroupMounts()
	if err != nil {
		return CgroupDirs{}, err
	}
	rel := path.Clean("/" + p)
	for _, m := range mounts { // a directory under a mount: make it relative
		if r, ok := strings.CutPrefix(rel, m.Shown+"/"); ok && strings.HasPrefix(p, "/") {
			rel = path.Clean(m.Root + "/" + r)
			break
		}
	}
	d := CgroupDirs{Path: rel, V1: map[string]string{}}
	for i := range mounts {
		m := &mounts[i]
		dir := underMount(m, rel)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		if m.Version == 2 {
			d.V2 = dir
			continue
		}
		for _, c := range m.Controllers {
			d.V1[c] = dir
		}
	}
	if d.V2 == "" && len(d.V1) == 0 {
		return CgroupDirs{}, fmt.Errorf("cgroup %q is in no mounted hierarchy: %w", rel, ErrCgroupNotFound)
	}
	d.Mode = cgMode(d)
	return d, nil
}

func cgMode(d CgroupDirs) string {
	switch {
	case d.V2 != "" && len(d.V1) > 0:
		return "hybrid"
	case d.V2 != "":
		return "v2"
	}
	return "v1"
}

func (h *Host) cgroupMounts() ([]cgroupMount, error) {
	b, err := os.ReadFile(h.procPath("self", "mountinfo"))
	if err != nil {
		return nil, fmt.Errorf("reading mounts: %w", err)
	}
	ms, err := parseCgroupMounts(b)
	if err != nil {
		return nil, err
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("no cgroup filesystem is mounted: %w", ErrCgroupNotFound)
	}
	// Fixture trees keep mount points relative to their sys root.
	for i := range ms {
		ms[i].Shown = ms[i].Point
		if r, ok := strings.CutPrefix(ms[i].Point, "/sys/"); ok && h.roots.Sys != "/sys" {
			ms[i].Point = filepath.Join(h.roots.Sys, r)
		}
	}
	return ms, nil
}

func findMount(ms []cgroupMount, version int, controller string) *cgroupMount {
	for i := range ms {
		if ms[i].Version == version && (version == 2 || slices.Contains(ms[i].Controllers, controller)) {
			return &ms[i]
		}
	}
	return nil
}

// underMount maps a cgroup path to its directory, minus the mount's own root
// (a container's cgroup namespace shows its cgroup as "/").
func underMount(m *cgroupMount, p string) string {
	rel := p
	if m.Root != "/" {
		rel = strings.TrimPrefix(p, m.Root)
	}
	return filepath.Join(m.Point, filepath.FromSlash(path.Clean("/"+rel)))
}

// CgroupSample is one reading of a cgroup's counters.
type CgroupSample struct {
	Time time.Time
	cpu  cgCPU
	io   CgroupIOSample
	psi  map[string]PSIStats // the cgroup's own v2 pressure files
}

type cgCPU struct {
	usageNS, periods, throttled, throttledNS uint64
	ok                                       bool
}
