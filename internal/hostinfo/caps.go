package hostinfo

import (
	"os"
)

// Capabilities says which measuring tools will work for this process.
type Capabilities struct {
	IsRoot        bool     `json:"is_root"`        // effective uid 0
	EffectiveCaps []string `json:"effective_caps"` // CapEff of this process, as CAP_* names

	// PerfEventParanoid is kernel.perf_event_paranoid: -1 allows everything, 0
	// adds CPU-wide events, 1 kernel profiling of own processes, 2 (the default)
	// user space of own processes only.
	PerfEventParanoid int  `json:"perf_event_paranoid"`
	PerfAvailable     bool `json:"perf_available"` // the perf binary is runnable
	// PerfPermitted means perf may profile the kernel as well as user space:
	// the process holds CAP_PERFMON or CAP_SYS_ADMIN (the kernel's
	// perfmon_capable(); being uid 0 without them is not enough), or
	// perf_event_paranoid <= 1. System-wide profiling without the capabilities
	// needs paranoid <= 0.
	PerfPermitted bool `json:"perf_permitted"`

	BpftraceAvailable bool `json:"bpftrace_available"`
	BpftoolAvailable  bool `json:"bpftool_available"`
	// BPFAvailable means tracing programs can be loaded: CAP_BPF or
	// CAP_SYS_ADMIN is effective and the kernel has the bpf syscall (bpffs
	// exists or kernel.unprivileged_bpf_disabled does).
	BPFAvailable   bool   `json:"bpf_available"`
	BTFAvailable   bool   `json:"btf_available"` // /sys/kernel/btf/vmlinux: CO-RE programs can load
	PSIEnabled     bool   `json:"psi_enabled"`   // /proc/pressure/cpu is readable
	TracefsMounted bool   `json:"tracefs_mounted"`
	TracefsPath    string `json:"tracefs_path,omitempty"`
}

func (h *Host) capabilities(mounts []mountInfo, hasBinary func(string) bool, w *warnings) Capabilities {
	c := Capabilities{
		PerfAvailable:     hasBinary("perf"),
		BpftraceAvailable: hasBinary("bpftrace"),
		BpftoolAvailable:  hasBinary("bpftool"),
		BTFAvailable:      exists(h.sysPath("kernel", "btf", "vmlinux")),
	}

	var capEff uint64
	if b, err := os.ReadFile(h.procPath("self", "status")); err != nil {
		w.add("capabilities unknown: %v", err)
	} else if st, err := parseStatus(b); err != nil {
		w.add("capabilities unknown: %v", err)
	} else {
		capEff = st.CapEff
		c.IsRoot = st.EUID == 0
	}
	c.EffectiveCaps = capNames(capEff)
	perfmon := hasCap(capEff, capPerfmon) || hasCap(capEff, capSysAdmin)

	paranoid, err := readInt(h.procPath("sys", "kernel", "perf_event_paranoid"))
	if err != nil {
		// No file: a kernel without perf events, where nothing is permitted.
		w.add("perf events unsupported or unreadable: %v", err)
	} else {
		c.PerfEventParanoid = paranoid
		c.PerfPermitted = perfmon || paranoid <= 1
	}

	bpfCap := hasCap(capEff, capBPF) || hasCap(capEff, capSysAdmin)
	bpfKernel := exists(h.sysPath("fs", "bpf")) || exists(h.procPath("sys", "kernel", "unprivileged_bpf_disabled"))
	c.BPFAvailable = bpfCap && bpfKernel

	// Reading, not stat'ing: psi=0 on the command line leaves the files in
	// place but failing with EOPNOTSUPP.
	_, err = os.ReadFile(h.procPath("pressure", "cpu"))
	c.PSIEnabled = err == nil

	c.TracefsPath = tracefsMount(mounts)
	c.TracefsMounted = c.TracefsPath != ""
	return c
}

// tracefsMount returns where tracefs is mounted, preferring /sys/kernel/tracing
// (Linux 4.1+), then the older path under debugfs, then any other place.
func tracefsMount(mounts []mountInfo) string {
	found, rank := "", 3
	for _, m := range mounts {
		if m.FSType != "tracefs" {
			continue
		}
		r := 2
		switch m.MountPoint {
		case "/sys/kernel/tracing":
			r = 0
		case "/sys/kernel/debug/tracing":
			r = 1
		}
		if r < rank {
			found, rank = m.MountPoint, r
		}
	}
	return found
}
