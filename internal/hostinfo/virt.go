package hostinfo

import (
	"os"
	"strings"

	"github.com/prometheus/procfs"
)

// Virtualization says what the host runs on and inside.
type Virtualization struct {
	// Type is the innermost layer: the container runtime when in a container
	// ("docker", "podman", "lxc", or "unknown"), otherwise the hypervisor
	// ("kvm", "xen", "vmware", "hyperv", "unknown"), otherwise "none".
	Type      string `json:"type"`
	VM        string `json:"vm"` // the hypervisor underneath, even inside a container; "none" on bare metal
	Container bool   `json:"container"`
	// CgroupVersion is the hierarchy resource controllers live on: 2 for a
	// unified (v2-only) host, 1 for v1 and hybrid hosts; 0 when unknown.
	CgroupVersion int    `json:"cgroup_version"`
	CgroupMode    string `json:"cgroup_mode"`             // "v1", "v2" or "hybrid"
	Cgroup2Mount  string `json:"cgroup2_mount,omitempty"` // where the cgroup2 hierarchy is mounted
}

func (h *Host) virtualization(ci cpuInfo, mounts []mountInfo, w *warnings) Virtualization {
	var v Virtualization
	v.VM = detectVM(h.vmSignals(ci))
	rt, inContainer := h.detectContainer(w)
	v.Type, v.Container = v.VM, inContainer
	if inContainer {
		v.Type = rt
	}
	if mounts != nil {
		v.CgroupVersion, v.CgroupMode, v.Cgroup2Mount = cgroupMode(mounts)
		if v.CgroupMode == "" {
			w.add("cgroup version unknown: no cgroup filesystem mounted")
		}
	}
	return v
}

// vmSignals are the traces a hypervisor leaves that an unprivileged reader can see.
type vmSignals struct {
	Vendor, Product string // /sys/class/dmi/id/sys_vendor and product_name
	HypervisorType  string // /sys/hypervisor/type (Xen)
	Clocksources    string // available_clocksource: kvm-clock, xen, hyperv_clocksource_*
	CPUFlag         bool   // the x86 "hypervisor" cpuid flag
}

func (h *Host) vmSignals(ci cpuInfo) vmSignals {
	dmi := func(name string) string {
		s, _ := readTrimmed(h.sysPath("class", "dmi", "id", name))
		return s
	}
	s := vmSignals{Vendor: dmi("sys_vendor"), Product: dmi("product_name"), CPUFlag: ci.Hypervisor}
	s.HypervisorType, _ = readTrimmed(h.sysPath("hypervisor", "type"))
	s.Clocksources, _ = readTrimmed(h.sysPath("devices", "system", "clocksource", "clocksource0", "available_clocksource"))
	return s
}

// detectVM names the hypervisor, in the spirit of systemd-detect-virt: DMI
// strings first, then paravirtual clocks (micro-VMs such as Firecracker have no
// DMI but offer kvm-clock), then the bare cpuid flag, which says "a VM" but not
// which.
func detectVM(s vmSignals) string {
	vendor, product := strings.ToLower(s.Vendor), strings.ToLower(s.Product)
	dmi := vendor + " " + product
	switch {
	case strings.Contains(dmi, "vmware"):
		return "vmware"
	case strings.Contains(vendor, "xen") || strings.Contains(product, "hvm domu") || s.HypervisorType == "xen":
		return "xen"
	case strings.Contains(vendor, "microsoft") && strings.Contains(product, "virtual machine"):
		return "hyperv"
	case containsAny(dmi, "qemu", "kvm", "bochs", "openstack", "firecracker", "cloud hypervisor"):
		return "kvm"
	// Amazon and Google also sell bare metal under their own DMI vendor: only
	// the cpuid flag tells their KVM-based guests apart.
	case s.CPUFlag && containsAny(dmi, "amazon ec2", "google"):
		return "kvm"
	}
	clocks := " " + s.Clocksources + " "
	switch {
	case strings.Contains(clocks, " kvm-clock "):
		return "kvm"
	case strings.Contains(clocks, " xen "):
		return "xen"
	case strings.Contains(clocks, " hyperv_clocksource"):
		return "hyperv"
	case s.CPUFlag:
		return "unknown"
	}
	return "none"
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// detectContainer looks for the markers runtimes leave, in systemd-detect-virt's
// order: the container= variable of PID 1 (or systemd's copy of it), podman's
// /run/.containerenv, docker's /.dockerenv, then PID 1's cgroup path, which
// names the runtime on v1 hosts without cgroup namespaces.
func (h *Host) detectContainer(w *warnings) (runtime string, ok bool) {
	var envErr error
	fs, err := procfs.NewFS(h.roots.Proc)
	var init procfs.Proc
	if err == nil {
		init, err = fs.Proc(1)
	}
	if err == nil {
		var env []string
		if env, envErr = init.Environ(); envErr == nil {
			for _, kv := range env {
				if val, found := strings.CutPrefix(kv, "container="); found && val != "" {
					return containerRuntime(val), true
				}
			}
		}
	}
	if s, err := readTrimmed(h.rootPath("run", "systemd", "container")); err == nil && s != "" {
		return containerRuntime(s), true
	}
	if exists(h.rootPath("run", ".containerenv")) {
		return "podman", true
	}
	if exists(h.rootPath(".dockerenv")) {
		return "docker", true
	}
	if err == nil {
		if cgs, err := init.Cgroups(); err == nil {
			for _, cg := range cgs {
				if rt, found := runtimeFromCgroupPath(cg.Path); found {
					return rt, true
				}
			}
		}
	}
	// Only worth saying when nothing else gave the answer.
	if envErr != nil && !os.IsNotExist(envErr) {
		w.add("container detection may be incomplete: %v", envErr)
	}
	return "", false
}

// containerRuntime maps a container= value to our names.
func containerRuntime(v string) string {
	switch v = strings.ToLower(strings.TrimSpace(v)); {
	case v == "docker", v == "podman":
		return v
	case strings.HasPrefix(v, "lxc"):
		return "lxc"
	}
	return "unknown"
}

// runtimeFromCgroupPath recognises the cgroup paths runtimes create, such as
// /docker/<id>, /system.slice/docker-<id>.scope, /machine.slice/libpod-<id>.scope,
// /lxc.payload.<name> or /kubepods/....
func runtimeFromCgroupPath(p string) (string, bool) {
	switch {
	case strings.Contains(p, "/docker/"), strings.Contains(p, "/docker-"):
		return "docker", true
	case strings.Contains(p, "libpod"):
		return "podman", true
	case strings.HasPrefix(p, "/lxc/"), strings.HasPrefix(p, "/lxc.payload"):
		return "lxc", true
	case strings.Contains(p, "kubepods"):
		return "unknown", true
	}
	return "", false
}

// cgroupMode tells v1, v2 and hybrid hosts apart by what is mounted: cgroup2
// alone is v2; cgroup (v1) hierarchies alone are v1; both, with cgroup2 at
// /sys/fs/cgroup/unified as systemd mounts it, is hybrid, where the resource
// controllers stay on v1.
func cgroupMode(mounts []mountInfo) (version int, mode, cgroup2Mount string) {
	var v1 bool
	for _, m := range mounts {
		switch m.FSType {
		case "cgroup":
			v1 = true
		case "cgroup2":
			if cgroup2Mount == "" || len(m.MountPoint) < len(cgroup2Mount) {
				cgroup2Mount = m.MountPoint
			}
		}
	}
	switch {
	case v1 && cgroup2Mount != "":
		return 1, "hybrid", cgroup2Mount
	case v1:
		return 1, "v1", ""
	case cgroup2Mount != "":
		return 2, "v2", cgroup2Mount
	}
	return 0, "", ""
}
