package hostinfo

import (
	"os"
	"strconv"
)

// CPU describes the processors the kernel has online.
type CPU struct {
	Model           string `json:"model"`
	Cores           int    `json:"cores"`   // physical cores
	Threads         int    `json:"threads"` // logical CPUs online
	Sockets         int    `json:"sockets"`
	NUMANodes       int    `json:"numa_nodes"`
	ScalingGovernor string `json:"scaling_governor"` // "" without cpufreq, as in most VMs
}

// cpuInfo reads /proc/cpuinfo once for both the CPU and the virtualization
// sections.
func (h *Host) cpuInfo(w *warnings) cpuInfo {
	b, err := os.ReadFile(h.procPath("cpuinfo"))
	if err != nil {
		w.add("cpu model and topology unknown: %v", err)
		return cpuInfo{}
	}
	ci, err := parseCPUInfo(b)
	if err != nil {
		w.add("cpu model and topology unknown: %v", err)
	}
	return ci
}

func (h *Host) cpu(ci cpuInfo, w *warnings) CPU {
	c := CPU{Model: ci.Model}

	// The online list is what the scheduler uses; cpuinfo lists the same CPUs
	// on most architectures but not all, so it is only the fallback.
	online, err := readCPUList(h.sysPath("devices", "system", "cpu", "online"))
	switch {
	case err == nil && len(online) > 0:
		c.Threads = len(online)
	case ci.Processors > 0:
		c.Threads = ci.Processors
	default:
		w.add("logical cpu count unknown: %v", err)
	}

	// Topology from sysfs works on every architecture; cpuinfo's "physical id"
	// and "core id" exist on x86 only.
	if cores, sockets, ok := h.sysfsTopology(online); ok {
		c.Cores, c.Sockets = cores, sockets
	} else if ci.Cores > 0 {
		c.Cores, c.Sockets = ci.Cores, max(ci.Sockets, 1)
	} else if c.Threads > 0 {
		c.Cores, c.Sockets = c.Threads, 1
		w.add("cpu topology unknown: counting each logical cpu as a core on one socket")
	}

	// A kernel built without NUMA has no node directory and one node.
	nodes, err := readCPUList(h.sysPath("devices", "system", "node", "online"))
	switch {
	case err != nil:
		c.NUMANodes = 1
		w.add("numa nodes unknown, assuming 1: %v", err)
	case len(nodes) == 0:
		c.NUMANodes = 1
		w.add("numa nodes unknown, assuming 1: empty node list")
	default:
		c.NUMANodes = len(nodes)
	}

	// Absent without cpufreq (most VMs): that is an answer, not a warning.
	c.ScalingGovernor, _ = readTrimmed(h.sysPath("devices", "system", "cpu", "cpu0", "cpufreq", "scaling_governor"))
	return c
}

// sysfsTopology counts distinct cores and packages among the online CPUs from
// /sys/devices/system/cpu/cpuN/topology (Documentation/admin-guide/cputopology.rst).
// A core_id is unique only within its package, so cores are counted by pair.
func (h *Host) sysfsTopology(online []int) (cores, sockets int, ok bool) {
	if len(online) == 0 {
		return 0, 0, false
	}
	coreSet := map[[2]int]bool{}
	pkgSet := map[int]bool{}
	for _, cpu := range online {
		dir := h.sysPath("devices", "system", "cpu", "cpu"+strconv.Itoa(cpu), "topology")
		core, err := readInt(dir + "/core_id")
		if err != nil {
			return 0, 0, false
		}
		pkg, err := readInt(dir + "/physical_package_id")
		if err != nil {
			return 0, 0, false
		}
		coreSet[[2]int{pkg, core}] = true
		pkgSet[pkg] = true
	}
	return len(coreSet), len(pkgSet), true
}

func readCPUList(path string) ([]int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseCPUList(b)
}
