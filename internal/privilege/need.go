// Package privilege is the one preflight of the tools that start perf,
// bpftrace or hostmcp's own eBPF programs: a table of what each needs from
// the kernel (perf_event_paranoid, capabilities, BTF, tracefs), judged
// against what perf_info reports before any program starts. A call the host
// does not allow is refused with what is missing, the value the kernel
// holds, what would allow it, and the /proc-based tool to use instead,
// rather than started to fail with the program's own complaint.
package privilege

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// Need is a set of things a run needs from the kernel or from the server's
// credentials.
type Need uint16

const (
	// PerfOwn is perf events on processes of hostmcp's own user, user space
	// only: perf_event_paranoid 2 or lower (Debian's, Ubuntu's and Android's
	// 3 and 4 refuse every user without CAP_PERFMON), or CAP_PERFMON.
	PerfOwn Need = 1 << iota
	// PerfKernel is samples of kernel code: perf_event_paranoid 1 or lower.
	PerfKernel
	// PerfSystem is events on every CPU, of every process (perf record -a):
	// perf_event_paranoid 0 or lower.
	PerfSystem
	// PerfRaw is tracepoint records with their raw fields, on every CPU
	// (perf sched record): perf_event_paranoid -1.
	PerfRaw
	// EBPF is loading hostmcp's tracing programs: CAP_BPF with CAP_PERFMON,
	// or CAP_SYS_ADMIN, in the server's own effective set.
	EBPF
	// Bpftrace is running bpftrace, which refuses any user but root, and
	// needs CAP_SYS_ADMIN or CAP_BPF with CAP_PERFMON in what root's
	// programs get.
	Bpftrace
	// BTF is the kernel's type information, which CO-RE programs are
	// relocated against.
	BTF
	// Tracefs is tracefs mounted and readable, where tracepoints are looked
	// up; a server with CAP_SYS_ADMIN mounts it when it is missing.
	Tracefs
)

// Missing is one need the host does not meet, said so that an operator can
// act on it.
type Missing struct {
	Need Need
	// What is the need in words ("perf events on every CPU").
	What string
	// Takes is what the kernel asks for it ("perf_event_paranoid 0 or
	// lower, or CAP_PERFMON").
	Takes string
	// Found is what this host holds instead, with the values read
	// ("perf_event_paranoid=2 and ...").
	Found string
	// Fix is what would grant it.
	Fix string
	// Feature marks something the kernel lacks rather than a privilege the
	// server lacks: no setting of the server's gives it.
	Feature bool
}

// Missing lists the needs of n that c does not meet, in bit order.
func (n Need) Missing(c hostinfo.Capabilities) []Missing {
	var out []Missing
	for rest := n; rest != 0; rest &= rest - 1 {
		one := rest & -rest
		if m := check(one, c); m != nil {
			m.Need = one
			out = append(out, *m)
		}
	}
	return out
}

// String names the needs, for perf_info and tests.
func (n Need) String() string {
	names := []string{"perf_own", "perf_kernel", "perf_system", "perf_raw", "ebpf", "bpftrace", "btf", "tracefs"}
	var out []string
	for rest := n; rest != 0; rest &= rest - 1 {
		if i := bits.TrailingZeros16(uint16(rest)); i < len(names) {
			out = append(out, names[i])
		}
	}
	return strings.Join(out, "+")
}

// check judges one need.
func check(n Need, c hostinfo.Capabilities) *Missing {
	switch n {
	case PerfOwn:
		return perfAt(c, 2, "perf events on processes of hostmcp's user")
	case PerfKernel:
		return perfAt(c, 1, "perf samples of kernel code")
	case PerfSystem:
		return perfAt(c, 0, "perf events on every CPU")
	case PerfRaw:
		return perfAt(c, -1, "raw tracepoint records on every CPU")
	case EBPF:
		return ebpf(c)
	case Bpftrace:
		return bpftrace(c)
	case BTF:
		if c.BTFAvailable {
			return nil
		}
		return &Missing{What: "kernel BTF", Takes: "/sys/kernel/btf/vmlinux", Found: "this kernel has no BTF",
			Fix: "a kernel built with CONFIG_DEBUG_INFO_BTF", Feature: true}
	case Tracefs:
		return tracefs(c)
	}
	return nil
}

// perfAt is a perf need that perf_event_paranoid level allows to every user,
// and CAP_PERFMON (or CAP_SYS_ADMIN, before Linux 5.8) to perf whatever the
// level: perf runs as a program of hostmcp's, so the capability counts in
// the set programs get (hostinfo.Capabilities.ProgramCaps).
func perfAt(c hostinfo.Capabilities, level int, what string) *Missing {
	if !c.PerfEventsSupported {
		return &Missing{What: what, Takes: "perf events", Found: "this kernel has no perf events (no /proc/sys/kernel/perf_event_paranoid)",
			Fix: "a kernel built with CONFIG_PERF_EVENTS", Feature: true}
	}
	if c.PerfEventParanoid <= level || c.ProgramsHave("CAP_PERFMON") || c.ProgramsHave("CAP_SYS_ADMIN") {
		return nil
	}
	return &Missing{
		What:  what,
		Takes: fmt.Sprintf("perf_event_paranoid %d or lower, or CAP_PERFMON", level),
		Found: fmt.Sprintf("perf_event_paranoid=%d and hostmcp's programs run without CAP_PERFMON (%s)", c.PerfEventParanoid, who(c)),
		Fix:   fmt.Sprintf("sysctl -w kernel.perf_event_paranoid=%d, or run hostmcp as root", level),
	}
}

func ebpf(c hostinfo.Capabilities) *Missing {
	what := "loading eBPF tracing programs"
	if !c.BPFSupported {
		return &Missing{What: what, Takes: "the bpf() system call", Found: "this kernel has no bpf() (no /sys/fs/bpf)",
			Fix: "a kernel built with CONFIG_BPF_SYSCALL", Feature: true}
	}
	if c.HasEffective("CAP_SYS_ADMIN") || c.HasEffective("CAP_BPF") && c.HasEffective("CAP_PERFMON") {
		return nil
	}
	return &Missing{
		What:  what,
		Takes: "CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN",
		Found: fmt.Sprintf("hostmcp (%s) holds %s", who(c), holding(c.HasEffective, "CAP_BPF", "CAP_PERFMON", "CAP_SYS_ADMIN")),
		Fix:   "run hostmcp as root, or give it CAP_BPF and CAP_PERFMON (AmbientCapabilities= in its systemd unit)",
	}
}

func bpftrace(c hostinfo.Capabilities) *Missing {
	what := "running bpftrace"
	switch {
	case !c.BPFSupported:
		return &Missing{What: what, Takes: "the bpf() system call", Found: "this kernel has no bpf() (no /sys/fs/bpf)",
			Fix: "a kernel built with CONFIG_BPF_SYSCALL", Feature: true}
	case !c.IsRoot:
		return &Missing{What: what, Takes: "root: bpftrace refuses any other user",
			Found: fmt.Sprintf("hostmcp runs as %s", who(c)), Fix: "run hostmcp as root"}
	case !c.ProgramsHave("CAP_SYS_ADMIN") && !(c.ProgramsHave("CAP_BPF") && c.ProgramsHave("CAP_PERFMON")):
		return &Missing{What: what, Takes: "root with CAP_SYS_ADMIN, or CAP_BPF and CAP_PERFMON",
			Found: fmt.Sprintf("hostmcp runs as root, but its programs get %s", holding(c.ProgramsHave, "CAP_BPF", "CAP_PERFMON", "CAP_SYS_ADMIN")),
			Fix:   "keep those capabilities in hostmcp's bounding set (a container's --cap-add, the unit's CapabilityBoundingSet=)"}
	}
	return nil
}

func tracefs(c hostinfo.Capabilities) *Missing {
	switch {
	case c.TracefsReadable:
		return nil
	case c.TracefsMounted:
		return &Missing{What: "tracefs, where tracepoints are looked up", Takes: "tracefs readable by hostmcp's user",
			Found: fmt.Sprintf("tracefs at %s is not readable by %s (it is root's, mode 0700, by default)", c.TracefsPath, who(c)),
			Fix:   fmt.Sprintf("run hostmcp as root, or remount tracefs readable (mount -o remount,mode=755 %s)", c.TracefsPath)}
	case c.HasEffective("CAP_SYS_ADMIN"):
		return nil // mounted when first needed, as systemd does at boot
	}
	return &Missing{What: "tracefs, where tracepoints are looked up", Takes: "tracefs mounted", Found: "tracefs is not mounted",
		Fix: "mount -t tracefs nodev /sys/kernel/tracing", Feature: true}
}

// who names the server's user.
func who(c hostinfo.Capabilities) string { return fmt.Sprintf("uid %d", c.UID) }

// holding says which of the named capabilities has reports present.
func holding(has func(string) bool, names ...string) string {
	var yes, no []string
	for _, n := range names {
		if has(n) {
			yes = append(yes, n)
		} else {
			no = append(no, n)
		}
	}
	switch {
	case len(yes) == 0:
		return "none of " + strings.Join(no, ", ")
	case len(no) == 0:
		return strings.Join(yes, ", ")
	}
	return strings.Join(yes, ", ") + " but not " + strings.Join(no, " nor ")
}
