package hostinfo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hostmcp/hostmcp/internal/figures"
)

// procCgroup is one line of /proc/<pid>/cgroup, "hierarchy:controllers:path"
// (cgroups(7)); the v2 line is "0::/path".
type procCgroup struct {
	Hierarchy   int
	Controllers []string // empty for the v2 line; "name=systemd" for named v1 hierarchies
	Path        string
}

// parseProcCgroup parses /proc/<pid>/cgroup.
func parseProcCgroup(b []byte) ([]procCgroup, error) {
	var out []procCgroup
	for n, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 || !strings.HasPrefix(parts[2], "/") {
			return nil, fmt.Errorf("parsing cgroup line %d %q: want hierarchy:controllers:/path", n+1, line)
		}
		h, err := strconv.Atoi(parts[0])
		if err != nil || h < 0 {
			return nil, fmt.Errorf("parsing cgroup line %d: hierarchy %q is not a number", n+1, parts[0])
		}
		cg := procCgroup{Hierarchy: h, Path: parts[2]}
		if parts[1] != "" {
			cg.Controllers = strings.Split(parts[1], ",")
		}
		out = append(out, cg)
	}
	return out, nil
}

// cgroupMount is a mounted cgroup hierarchy.
type cgroupMount struct {
	Version     int // 1 or 2
	Point       string
	Shown       string   // Point as the host's processes see it (fixture trees move Point under their root)
	Root        string   // the cgroup mounted there ("/" unless in a cgroup namespace or a bind mount)
	Controllers []string // v1: from the super options (cpu,cpuacct); v2: none
}

// parseCgroupMounts picks the cgroup and cgroup2 mounts out of mountinfo,
// keeping a v1 hierarchy's controllers, which are its super options (the
// last field: "rw,cpu,cpuacct").
func parseCgroupMounts(b []byte) ([]cgroupMount, error) {
	var out []cgroupMount
	for n, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		m, err := parseMountInfoLine(line)
		if err != nil {
			return nil, fmt.Errorf("parsing mountinfo line %d: %w", n+1, err)
		}
		switch m.FSType {
		case "cgroup2":
			out = append(out, cgroupMount{Version: 2, Point: m.MountPoint, Root: m.Root})
		case "cgroup":
			f := strings.Fields(line)
			cm := cgroupMount{Version: 1, Point: m.MountPoint, Root: m.Root}
			for _, o := range strings.Split(f[len(f)-1], ",") {
				switch {
				case o == "rw" || o == "ro" || strings.Contains(o, "=") && !strings.HasPrefix(o, "name="):
				case o == "clone_children" || o == "noprefix" || o == "xattr" || o == "cpuset_v2_mode":
				default:
					cm.Controllers = append(cm.Controllers, o)
				}
			}
			out = append(out, cm)
		}
	}
	return out, nil
}

// parseUintStr parses a decimal counter such as cpuacct.usage.
func parseUintStr(s string) (uint64, error) { return strconv.ParseUint(s, 10, 64) }

// parseCgroupMax parses a single-value limit file: cpu.max's or memory.max's
// "max" (no limit, nil) or a number. On v1, limits of 2^62 and up (the
// page-rounded LONG_MAX memory.limit_in_bytes prints) and -1 also mean none.
func parseCgroupMax(s string) (*uint64, error) {
	s = strings.TrimSpace(s)
	if s == "max" || s == "-1" {
		return nil, nil
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("limit %q: want a number or max", s)
	}
	if v >= 1<<62 {
		return nil, nil
	}
	return &v, nil
}

// parseCPUMax parses cgroup v2 cpu.max, "quota period" or "max period", into
// the CPUs allowed (quota/period; nil when unlimited) and the period in µs.
func parseCPUMax(b []byte) (cpus *float64, quotaUS, periodUS uint64, err error) {
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return nil, 0, 0, fmt.Errorf("cpu.max %q: want quota and period", b)
	}
	if periodUS, err = strconv.ParseUint(f[1], 10, 64); err != nil || periodUS == 0 {
		return nil, 0, 0, fmt.Errorf("cpu.max period %q: want a positive number", f[1])
	}
	if f[0] == "max" {
		return nil, 0, periodUS, nil
	}
	if quotaUS, err = strconv.ParseUint(f[0], 10, 64); err != nil {
		return nil, 0, 0, fmt.Errorf("cpu.max quota %q: want a number or max", f[0])
	}
	c := figures.Round3(float64(quotaUS) / float64(periodUS))
	return &c, quotaUS, periodUS, nil
}
