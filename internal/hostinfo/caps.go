package hostinfo

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Capabilities says which measuring tools will work for this process: the
// facts the privileged tools' preflight (internal/privilege) judges.
type Capabilities struct {
	IsRoot bool `json:"is_root"` // effective uid 0
	UID    int  `json:"uid"`     // real user id: the one perf's and ptrace's access checks compare
	GID    int  `json:"gid"`     // real group id
	// EffectiveCaps is CapEff of this process, as CAP_* names: what
	// hostmcp's own eBPF programs are loaded with.
	EffectiveCaps []string `json:"effective_caps"`
	// ProgramCaps are the capabilities the programs hostmcp starts (perf,
	// bpftrace) run with: as root, the bounding and inheritable sets (within
	// the permitted set under no_new_privs); as any other user, only the
	// ambient set, whatever the server itself holds (file capabilities on
	// the hostmcp binary do not pass to perf).
	ProgramCaps []string `json:"program_caps"`

	// PerfEventsSupported means the kernel has perf events
	// (kernel.perf_event_paranoid exists).
	PerfEventsSupported bool `json:"perf_events_supported"`
	// PerfEventParanoid is kernel.perf_event_paranoid: -1 allows everything, 0
	// adds CPU-wide events, 1 kernel profiling of own processes, 2 (the default)
	// user space of own processes only; 3 and up (Debian, Ubuntu, Android
	// patches) nothing without CAP_PERFMON.
	PerfEventParanoid int  `json:"perf_event_paranoid"`
	PerfAvailable     bool `json:"perf_available"` // the perf binary is runnable
	// PerfPermitted means perf may profile the kernel as well as user space:
	// hostmcp's programs hold CAP_PERFMON or CAP_SYS_ADMIN (the kernel's
	// perfmon_capable(); being uid 0 without them is not enough), or
	// perf_event_paranoid <= 1. System-wide profiling without the capabilities
	// needs paranoid <= 0.
	PerfPermitted bool `json:"perf_permitted"`

	BpftraceAvailable bool `json:"bpftrace_available"`
	BpftoolAvailable  bool `json:"bpftool_available"`
	// BPFSupported means the kernel has the bpf syscall (bpffs exists, or
	// kernel.unprivileged_bpf_disabled does).
	BPFSupported bool `json:"bpf_supported"`
	// BPFAvailable means tracing programs can be loaded by this process: the
	// kernel supports them and CAP_BPF with CAP_PERFMON, or CAP_SYS_ADMIN,
	// is effective (tracing programs need CAP_PERFMON beside CAP_BPF).
	BPFAvailable   bool   `json:"bpf_available"`
	BTFAvailable   bool   `json:"btf_available"` // /sys/kernel/btf/vmlinux: CO-RE programs can load
	PSIEnabled     bool   `json:"psi_enabled"`   // /proc/pressure/cpu is readable
	TracefsMounted bool   `json:"tracefs_mounted"`
	TracefsPath    string `json:"tracefs_path,omitempty"`
	// TracefsReadable means this process can list tracefs's events, where
	// perf and eBPF look tracepoints up (tracefs is root's, mode 0700, by
	// default).
	TracefsReadable bool `json:"tracefs_readable"`
}

// HasEffective reports whether this process holds capability name
// ("CAP_PERFMON") in its effective set.
func (c Capabilities) HasEffective(name string) bool { return slices.Contains(c.EffectiveCaps, name) }

// ProgramsHave reports whether the programs hostmcp starts get capability
// name.
func (c Capabilities) ProgramsHave(name string) bool { return slices.Contains(c.ProgramCaps, name) }

// Capabilities reads what this process may measure, as perf_info reports
// it, with warnings for what could not be read. It reads a few small files
// only, so a preflight can call it before every privileged call: the
// settings it reports (perf_event_paranoid) may change at any time.
func (h *Host) Capabilities(hasBinary func(string) bool) (Capabilities, []string) {
	if hasBinary == nil {
		hasBinary = func(string) bool { return false }
	}
	var w warnings
	mounts, err := h.mountInfo(h.procPath("self", "mountinfo"))
	if err != nil {
		w.add("mounts unknown (tracefs): %v", err)
	}
	return h.capabilities(mounts, hasBinary, &w), w
}

func (h *Host) capabilities(mounts []mountInfo, hasBinary func(string) bool, w *warnings) Capabilities {
	c := Capabilities{
		PerfAvailable:     hasBinary("perf"),
		BpftraceAvailable: hasBinary("bpftrace"),
		BpftoolAvailable:  hasBinary("bpftool"),
		BTFAvailable:      exists(h.sysPath("kernel", "btf", "vmlinux")),
	}

	var st procStatus
	if b, err := os.ReadFile(h.procPath("self", "status")); err != nil {
		w.add("capabilities unknown: %v", err)
	} else if st, err = parseStatus(b); err != nil {
		w.add("capabilities unknown: %v", err)
	} else {
		c.IsRoot = st.EUID == 0
		c.UID, c.GID = st.UID, st.GID
	}
	c.EffectiveCaps = capNames(st.CapEff)
	programCaps := programCaps(st)
	c.ProgramCaps = capNames(programCaps)
	programsPerfmon := hasCap(programCaps, capPerfmon) || hasCap(programCaps, capSysAdmin)

	paranoid, err := readInt(h.procPath("sys", "kernel", "perf_event_paranoid"))
	if err != nil {
		// No file: a kernel without perf events, where nothing is permitted.
		w.add("perf events unsupported or unreadable: %v", err)
	} else {
		c.PerfEventsSupported = true
		c.PerfEventParanoid = paranoid
		c.PerfPermitted = programsPerfmon || paranoid <= 1
	}

	c.BPFSupported = exists(h.sysPath("fs", "bpf")) || exists(h.procPath("sys", "kernel", "unprivileged_bpf_disabled"))
	tracing := hasCap(st.CapEff, capBPF) && hasCap(st.CapEff, capPerfmon) || hasCap(st.CapEff, capSysAdmin)
	c.BPFAvailable = c.BPFSupported && tracing

	// Reading, not stat'ing: psi=0 on the command line leaves the files in
	// place but failing with EOPNOTSUPP.
	_, err = os.ReadFile(h.procPath("pressure", "cpu"))
	c.PSIEnabled = err == nil

	c.TracefsPath = tracefsMount(mounts)
	c.TracefsMounted = c.TracefsPath != ""
	c.TracefsReadable = c.TracefsMounted && listable(filepath.Join(h.hostPath(c.TracefsPath), "events"))
	return c
}

// programCaps is the capability set a program this process executes gets
// (capabilities(7), "Transformation of capabilities during execve()"), for
// a program without file capabilities. As root, the kernel grants it the
// inheritable and bounding sets, kept within the permitted set under
// no_new_privs; any other user's program gets the ambient set only.
func programCaps(st procStatus) uint64 {
	if st.EUID != 0 {
		return st.CapAmb
	}
	c := st.CapInh | st.CapBnd
	if st.NoNewPrivs {
		c &= st.CapPrm
	}
	return c
}

// listable reports whether dir can be listed by this process.
func listable(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	_, err = f.Readdirnames(1)
	return err == nil
}

// hostPath maps an absolute path on the host to where this Host reads it:
// under its proc or sys root for paths in /proc and /sys, else under its
// root file system.
func (h *Host) hostPath(p string) string {
	for prefix, root := range map[string]string{"/proc": h.roots.Proc, "/sys": h.roots.Sys} {
		if rest, ok := strings.CutPrefix(p, prefix); ok && (rest == "" || rest[0] == '/') {
			return filepath.Join(root, rest)
		}
	}
	return h.rootPath(p)
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
