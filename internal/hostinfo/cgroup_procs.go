package hostinfo

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/procs"
)

// Bounds of the look for a cgroup's processes: the cgroup and the cgroups
// below it, up to maxProcDirs directories and maxProcPIDs processes, of
// which maxNamedProcs are named.
const (
	maxProcDirs   = 64
	maxProcPIDs   = 1024
	maxNamedProcs = 5
)

// CgroupProcess is a process of a cgroup that a limit holds back.
type CgroupProcess struct {
	PID        int     `json:"pid"`
	Comm       string  `json:"comm"`
	CPUSeconds float64 `json:"cpu_seconds" jsonschema:"user and system CPU time since it started"`
	RSSBytes   uint64  `json:"rss_bytes" jsonschema:"resident set size"`
}

// NameLimitedProcesses fills in the processes of the cgroups c lists, read
// now: the cgroup's own and those of the cgroups below it, where a quota or
// limit set on a parent holds its children's processes.
func (h *Host) NameLimitedProcesses(c *PerfCgroups) {
	if c == nil {
		return
	}
	for i := range c.CPUThrottled {
		c.CPUThrottled[i].Processes = h.cgroupProcesses(filepath.Dir(c.CPUThrottled[i].Source), false)
	}
	for i := range c.MemoryLimited {
		c.MemoryLimited[i].Processes = h.cgroupProcesses(c.MemoryLimited[i].Source, true)
	}
	for i := range c.IOLimited {
		c.IOLimited[i].Processes = h.cgroupProcesses(c.IOLimited[i].Source, false)
	}
}

// cgroupProcesses reads cgroup.procs of dir and of the directories below
// it, and names the processes that use the most CPU time (or, byRSS, the
// most memory). A process that exits meanwhile is left out.
func (h *Host) cgroupProcesses(dir string, byRSS bool) []CgroupProcess {
	var pids []int
	queue := []string{dir}
	for n := 0; len(queue) > 0 && n < maxProcDirs && len(pids) < maxProcPIDs; n++ {
		d := queue[0]
		queue = queue[1:]
		if b, err := os.ReadFile(filepath.Join(d, "cgroup.procs")); err == nil {
			for _, f := range strings.Fields(string(b)) {
				if pid, err := strconv.Atoi(f); err == nil && len(pids) < maxProcPIDs {
					pids = append(pids, pid)
				}
			}
		}
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if e.IsDir() {
				queue = append(queue, filepath.Join(d, e.Name()))
			}
		}
	}
	out := []CgroupProcess{}
	page := uint64(os.Getpagesize())
	for _, pid := range pids {
		b, err := os.ReadFile(h.procPath(strconv.Itoa(pid), "stat"))
		if err != nil {
			continue
		}
		st, err := procs.ParseStat(b)
		if err != nil {
			continue
		}
		p := CgroupProcess{PID: pid, Comm: st.Comm, CPUSeconds: figures.Round2(float64(st.UTime+st.STime) / procs.ClockTicks)}
		if b, err := os.ReadFile(h.procPath(strconv.Itoa(pid), "statm")); err == nil {
			if f := strings.Fields(string(b)); len(f) > 1 {
				if pages, err := strconv.ParseUint(f[1], 10, 64); err == nil {
					p.RSSBytes = pages * page
				}
			}
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(x, y CgroupProcess) int {
		if byRSS {
			return cmp.Or(cmp.Compare(y.RSSBytes, x.RSSBytes), cmp.Compare(x.PID, y.PID))
		}
		return cmp.Or(cmp.Compare(y.CPUSeconds, x.CPUSeconds), cmp.Compare(x.PID, y.PID))
	})
	return out[:min(len(out), maxNamedProcs)]
}
