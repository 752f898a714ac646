package doctor

import (
	"fmt"
	"strings"
)

// hostSection says what can run here, and warns where a served toolset
// needs what this host or these privileges lack.
func hostSection(f *Facts) Section {
	c, v := f.Caps, f.Virt
	sec := Section{Title: "What can run here"}
	add := func(ck Check) { sec.Checks = append(sec.Checks, ck) }
	if f.HostErr != nil {
		add(Check{Status: Warn, What: "host", Detail: f.HostErr.Error(), Fix: "check that /proc and /sys are mounted"})
	}
	who := "not root"
	if c.IsRoot {
		who = "root"
	}
	caps := "none"
	if len(c.EffectiveCaps) > 0 {
		caps = strings.Join(c.EffectiveCaps, " ")
	}
	add(Check{Status: Info, What: "privileges", Detail: who + "; effective capabilities: " + caps})

	perf := Check{Status: OK, What: "perf", Detail: fmt.Sprintf("permitted (perf_event_paranoid %d)", c.PerfEventParanoid)}
	switch {
	case !c.PerfAvailable:
		perf = Check{Status: Info, What: "perf", Detail: "no perf binary (see Programs)"}
	case !c.PerfPermitted:
		perf = capCheck(f, "profile", "perf", fmt.Sprintf("not permitted: perf_event_paranoid is %d and CAP_PERFMON is not effective; profiles see only this user's processes in user space", c.PerfEventParanoid),
			"run as root or grant CAP_PERFMON (or sysctl kernel.perf_event_paranoid=1)")
	}
	add(perf)

	if c.BPFAvailable {
		add(Check{Status: OK, What: "eBPF", Detail: "programs can be loaded (CAP_BPF or CAP_SYS_ADMIN)"})
	} else {
		add(capCheck(f, "trace", "eBPF", "cannot load programs: CAP_BPF is not effective or the kernel lacks bpf(2); the trace tools answer CAPABILITY_MISSING",
			"run as root or grant CAP_BPF and CAP_PERFMON"))
	}
	if c.BTFAvailable {
		add(Check{Status: OK, What: "BTF", Detail: "/sys/kernel/btf/vmlinux: CO-RE programs load"})
	} else {
		add(capCheck(f, "trace", "BTF", "no /sys/kernel/btf/vmlinux: the trace tools' CO-RE programs cannot load",
			"a kernel built with CONFIG_DEBUG_INFO_BTF=y (Debian's is)"))
	}
	switch {
	case !c.BpftraceAvailable:
		add(Check{Status: Info, What: "bpftrace", Detail: "no bpftrace binary (see Programs)"})
	case !c.IsRoot:
		add(capCheck(f, "bpftrace", "bpftrace", "installed, but bpftrace runs only as root", "run hostmcp as root, or leave bpftrace out of the toolsets"))
	default:
		add(Check{Status: OK, What: "bpftrace", Detail: "runs (as root)"})
	}
	if c.TracefsMounted {
		add(Check{Status: OK, What: "tracefs", Detail: "mounted at " + c.TracefsPath})
	} else {
		add(Check{Status: Info, What: "tracefs", Detail: "not mounted; the trace tools mount it at /sys/kernel/tracing when they need it (that needs CAP_SYS_ADMIN)"})
	}
	if c.PSIEnabled {
		add(Check{Status: OK, What: "PSI", Detail: "/proc/pressure readable"})
	} else {
		add(Check{Status: Info, What: "PSI", Detail: "off (psi=0 or an old kernel); health verdicts use load and run queues instead"})
	}
	cg := fmt.Sprintf("%s (controllers on v%d)", v.CgroupMode, v.CgroupVersion)
	switch {
	case v.CgroupMode == "":
		cg = "no cgroup file system found; perf_cgroup_summary has nothing to read"
	case v.Cgroup2Mount != "":
		cg += ", cgroup2 at " + v.Cgroup2Mount
	}
	add(Check{Status: Info, What: "cgroups", Detail: cg})
	env := "virtualization: " + v.Type
	if v.Container {
		env += " (in a container: /proc and /sys are the container's unless the host's are mounted in)"
	}
	add(Check{Status: Info, What: "machine", Detail: env})
	sec.Checks = append(sec.Checks, replChecks(f)...)
	return sec
}

// capCheck warns when the toolset that needs a missing capability is
// served, and only informs otherwise.
func capCheck(f *Facts, toolset, what, detail, fix string) Check {
	if f.served(toolset) {
		return Check{Status: Warn, What: what, Detail: detail, Fix: fix}
	}
	return Check{Status: Info, What: what, Detail: detail + " (the " + toolset + " toolset is not served)"}
}

// replChecks say how sessions are confined: Landlock's ABI and the user
// namespace a server without CAP_SYS_ADMIN needs.
func replChecks(f *Facts) []Check {
	r := f.Config.Repl
	var out []Check
	switch abi := f.LandlockABI; {
	case abi >= 4 || (abi > 0 && r.Network):
		out = append(out, Check{Status: OK, What: "Landlock", Detail: fmt.Sprintf("ABI %d: sessions (repl) and ripgrep are confined to the roots", abi)})
	case abi > 0:
		out = append(out, capCheck(f, "repl", "Landlock", fmt.Sprintf("ABI %d cannot deny TCP (needs 4, Linux 6.7): proc_start refuses unless [repl] network or unconfined", abi),
			"a newer kernel, or [repl] network = true knowingly"))
	case r.Unconfined:
		out = append(out, capCheck(f, "repl", "Landlock", "not available: sessions start UNCONFINED ([repl] unconfined = true) and can reach every file their user can",
			"a kernel with Landlock (5.13+, lsm= including landlock)"))
	default:
		out = append(out, capCheck(f, "repl", "Landlock", "not available: proc_start answers CAPABILITY_MISSING; ripgrep runs unconfined",
			"a kernel with Landlock (5.13+, lsm= including landlock)"))
	}
	u := f.UserNS
	switch {
	case !u.Needed && !hasCap(f.Caps.EffectiveCaps, "CAP_SYS_ADMIN"):
		out = append(out, capCheck(f, "repl", "sessions", "root without CAP_SYS_ADMIN cannot make a session's PID and mount namespaces: proc_start fails",
			"add CAP_SYS_ADMIN and CAP_SETPCAP (under systemd: CapabilityBoundingSet= in a drop-in), or leave repl out of the toolsets"))
	case !u.Needed:
		out = append(out, Check{Status: OK, What: "user namespaces", Detail: "not needed: root with CAP_SYS_ADMIN makes sessions' namespaces itself"})
	case u.Blocked == "":
		out = append(out, Check{Status: OK, What: "user namespaces", Detail: "available for sessions (this server is not root)"})
	default:
		out = append(out, capCheck(f, "repl", "user namespaces", "refused: "+u.Blocked+"; proc_start answers CAPABILITY_MISSING", u.Fix))
	}
	return out
}

func hasCap(caps []string, name string) bool {
	for _, c := range caps {
		if c == name {
			return true
		}
	}
	return false
}
