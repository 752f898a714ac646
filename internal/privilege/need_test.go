package privilege

import (
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// Hosts as perf_info reports them.
var (
	rootHost = hostinfo.Capabilities{IsRoot: true, EffectiveCaps: []string{"CAP_SYS_PTRACE", "CAP_SYS_ADMIN", "CAP_PERFMON", "CAP_BPF"},
		ProgramCaps: []string{"CAP_SYS_PTRACE", "CAP_SYS_ADMIN", "CAP_PERFMON", "CAP_BPF"}, PerfEventsSupported: true, PerfEventParanoid: 2,
		BPFSupported: true, BTFAvailable: true, TracefsMounted: true, TracefsPath: "/sys/kernel/tracing", TracefsReadable: true}
	nobodyHost = hostinfo.Capabilities{UID: 65534, GID: 65534, EffectiveCaps: []string{}, ProgramCaps: []string{}, PerfEventsSupported: true, PerfEventParanoid: 2,
		BPFSupported: true, BTFAvailable: true, TracefsMounted: true, TracefsPath: "/sys/kernel/tracing"}
)

func with(c hostinfo.Capabilities, change func(*hostinfo.Capabilities)) hostinfo.Capabilities {
	change(&c)
	return c
}

// Each need is judged by the kernel's rule for it, and a missing one says
// what it takes, the value this host holds, and whether it is a feature of
// the kernel (no setting gives it) or a privilege.
func TestNeedMissing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		host    hostinfo.Capabilities
		need    Need
		missing []Need
		found   []string // in the Found of the missing ones, in order
		feature bool
	}{
		{"root has everything", rootHost, PerfOwn | PerfKernel | PerfSystem | PerfRaw | EBPF | Bpftrace | BTF | Tracefs, nil, nil, false},
		{"paranoid 2 allows own user space", nobodyHost, PerfOwn, nil, nil, false},
		{"paranoid 2 refuses the kernel", nobodyHost, PerfKernel, []Need{PerfKernel}, []string{"perf_event_paranoid=2", "without CAP_PERFMON", "uid 65534"}, false},
		{"paranoid 2 refuses system-wide", nobodyHost, PerfSystem | PerfRaw, []Need{PerfSystem, PerfRaw}, []string{"perf_event_paranoid=2", "perf_event_paranoid=2"}, false},
		{"paranoid -1 allows raw tracepoints", with(nobodyHost, func(c *hostinfo.Capabilities) { c.PerfEventParanoid = -1 }), PerfRaw | PerfSystem, nil, nil, false},
		{"paranoid 3 refuses even own processes", with(nobodyHost, func(c *hostinfo.Capabilities) { c.PerfEventParanoid = 3 }), PerfOwn, []Need{PerfOwn}, []string{"perf_event_paranoid=3"}, false},
		{"CAP_PERFMON in the programs' set beats paranoid", with(nobodyHost, func(c *hostinfo.Capabilities) {
			c.PerfEventParanoid, c.ProgramCaps = 4, []string{"CAP_PERFMON"}
		}), PerfOwn | PerfRaw, nil, nil, false},
		{"CAP_PERFMON of the server only does not reach perf", with(nobodyHost, func(c *hostinfo.Capabilities) { c.EffectiveCaps = []string{"CAP_PERFMON"} }),
			PerfSystem, []Need{PerfSystem}, []string{"without CAP_PERFMON"}, false},
		{"no perf events", with(rootHost, func(c *hostinfo.Capabilities) { c.PerfEventsSupported = false }), PerfOwn, []Need{PerfOwn}, []string{"no perf events"}, true},
		{"eBPF without capabilities", nobodyHost, EBPF, []Need{EBPF}, []string{"uid 65534", "none of CAP_BPF, CAP_PERFMON, CAP_SYS_ADMIN"}, false},
		{"eBPF with CAP_BPF alone", with(nobodyHost, func(c *hostinfo.Capabilities) { c.EffectiveCaps = []string{"CAP_BPF"} }), EBPF, []Need{EBPF},
			[]string{"CAP_BPF but not CAP_PERFMON nor CAP_SYS_ADMIN"}, false},
		{"eBPF with CAP_BPF and CAP_PERFMON", with(nobodyHost, func(c *hostinfo.Capabilities) { c.EffectiveCaps = []string{"CAP_PERFMON", "CAP_BPF"} }), EBPF, nil, nil, false},
		{"no bpf syscall", with(rootHost, func(c *hostinfo.Capabilities) { c.BPFSupported = false }), EBPF | Bpftrace, []Need{EBPF, Bpftrace}, []string{"no bpf()", "no bpf()"}, true},
		{"bpftrace refuses non-root even with capabilities", with(nobodyHost, func(c *hostinfo.Capabilities) { c.ProgramCaps = []string{"CAP_SYS_ADMIN"} }),
			Bpftrace, []Need{Bpftrace}, []string{"hostmcp runs as uid 65534"}, false},
		{"root without the capabilities in its bounding set", with(rootHost, func(c *hostinfo.Capabilities) { c.ProgramCaps = []string{"CAP_CHOWN"} }),
			Bpftrace, []Need{Bpftrace}, []string{"its programs get none of CAP_BPF"}, false},
		{"no BTF", with(rootHost, func(c *hostinfo.Capabilities) { c.BTFAvailable = false }), BTF, []Need{BTF}, []string{"no BTF"}, true},
		{"tracefs root's only", nobodyHost, Tracefs, []Need{Tracefs}, []string{"tracefs at /sys/kernel/tracing is not readable by uid 65534"}, false},
		{"tracefs not mounted, root mounts it", with(rootHost, func(c *hostinfo.Capabilities) {
			c.TracefsMounted, c.TracefsReadable, c.TracefsPath = false, false, ""
		}), Tracefs, nil, nil, false},
		{"tracefs not mounted, nobody cannot", with(nobodyHost, func(c *hostinfo.Capabilities) { c.TracefsMounted, c.TracefsPath = false, "" }),
			Tracefs, []Need{Tracefs}, []string{"not mounted"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := tc.need.Missing(tc.host)
			if len(got) != len(tc.missing) {
				t.Fatalf("missing %+v, want %v", got, tc.missing)
			}
			for i, m := range got {
				if m.Need != tc.missing[i] || !strings.Contains(m.Found, tc.found[i]) || m.Feature != tc.feature {
					t.Errorf("missing[%d] = %+v; want %v with %q in Found, feature %v", i, m, tc.missing[i], tc.found[i], tc.feature)
				}
				if m.What == "" || m.Takes == "" || m.Fix == "" {
					t.Errorf("missing[%d] does not say what it is, takes or how to fix it: %+v", i, m)
				}
			}
		})
	}
}

func TestNeedString(t *testing.T) {
	t.Parallel()
	if got := (PerfRaw | Tracefs | EBPF).String(); got != "perf_raw+ebpf+tracefs" {
		t.Errorf("got %q", got)
	}
	if got := Need(0).String(); got != "" {
		t.Errorf("no needs: %q", got)
	}
}
