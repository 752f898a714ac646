package hostinfo

import "testing"

func TestDetectVM(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   vmSignals
		want string
	}{
		{name: "bare metal", in: vmSignals{Vendor: "Dell Inc.", Product: "PowerEdge R650"}, want: "none"},
		{name: "qemu", in: vmSignals{Vendor: "QEMU", Product: "Standard PC (Q35 + ICH9, 2009)", CPUFlag: true}, want: "kvm"},
		{name: "vmware", in: vmSignals{Vendor: "VMware, Inc.", Product: "VMware Virtual Platform", CPUFlag: true}, want: "vmware"},
		{name: "hyper-v", in: vmSignals{Vendor: "Microsoft Corporation", Product: "Virtual Machine", CPUFlag: true}, want: "hyperv"},
		{name: "microsoft laptop", in: vmSignals{Vendor: "Microsoft Corporation", Product: "Surface Laptop 5"}, want: "none"},
		{name: "xen hvm", in: vmSignals{Vendor: "Xen", Product: "HVM domU", CPUFlag: true}, want: "xen"},
		{name: "xen pv without dmi", in: vmSignals{HypervisorType: "xen"}, want: "xen"},
		{name: "ec2 nitro guest", in: vmSignals{Vendor: "Amazon EC2", Product: "m5.large", CPUFlag: true}, want: "kvm"},
		{name: "ec2 bare metal", in: vmSignals{Vendor: "Amazon EC2", Product: "i3.metal"}, want: "none"},
		{name: "gce", in: vmSignals{Vendor: "Google", Product: "Google Compute Engine", CPUFlag: true}, want: "kvm"},
		{name: "firecracker: no dmi, kvm-clock", in: vmSignals{Clocksources: "tsc kvm-clock", CPUFlag: true}, want: "kvm"},
		{name: "hyper-v clock", in: vmSignals{Clocksources: "tsc hyperv_clocksource_tsc_page acpi_pm"}, want: "hyperv"},
		{name: "flag only", in: vmSignals{Clocksources: "tsc", CPUFlag: true}, want: "unknown"},
		{name: "virtualbox is unknown", in: vmSignals{Vendor: "innotek GmbH", Product: "VirtualBox", CPUFlag: true}, want: "unknown"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := detectVM(tc.in); got != tc.want {
				t.Errorf("detectVM(%+v) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestCgroupMode(t *testing.T) {
	t.Parallel()
	v1 := func(dir string) mountInfo { return mountInfo{MountPoint: "/sys/fs/cgroup/" + dir, FSType: "cgroup"} }
	v2 := func(dir string) mountInfo { return mountInfo{MountPoint: dir, FSType: "cgroup2"} }
	root := mountInfo{MountPoint: "/", FSType: "ext4"}
	tests := []struct {
		name        string
		mounts      []mountInfo
		wantVersion int
		wantMode    string
		wantMount   string
	}{
		{name: "unified", mounts: []mountInfo{root, v2("/sys/fs/cgroup")}, wantVersion: 2, wantMode: "v2", wantMount: "/sys/fs/cgroup"},
		{name: "hybrid", mounts: []mountInfo{root, v1("cpu"), v1("memory"), v2("/sys/fs/cgroup/unified")},
			wantVersion: 1, wantMode: "hybrid", wantMount: "/sys/fs/cgroup/unified"},
		{name: "legacy", mounts: []mountInfo{root, v1("cpu"), v1("systemd")}, wantVersion: 1, wantMode: "v1"},
		{name: "nested cgroup2 mounts: shortest wins", mounts: []mountInfo{v2("/sys/fs/cgroup/x/y"), v2("/sys/fs/cgroup")},
			wantVersion: 2, wantMode: "v2", wantMount: "/sys/fs/cgroup"},
		{name: "none", mounts: []mountInfo{root}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			version, mode, mount := cgroupMode(tc.mounts)
			if version != tc.wantVersion || mode != tc.wantMode || mount != tc.wantMount {
				t.Errorf("cgroupMode = %d, %q, %q, want %d, %q, %q", version, mode, mount, tc.wantVersion, tc.wantMode, tc.wantMount)
			}
		})
	}
}

func TestRuntimeFromCgroupPath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		path   string
		want   string
		wantOK bool
	}{
		{path: "/", wantOK: false},
		{path: "/init.scope", wantOK: false},
		{path: "/docker/3f2a1b4c5d6e", want: "docker", wantOK: true},
		{path: "/system.slice/docker-3f2a.scope", want: "docker", wantOK: true},
		{path: "/machine.slice/libpod-3f2a.scope", want: "podman", wantOK: true},
		{path: "/lxc.payload.web/init.scope", want: "lxc", wantOK: true},
		{path: "/kubepods/burstable/pod1/3f2a", want: "unknown", wantOK: true},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			got, ok := runtimeFromCgroupPath(tc.path)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("runtimeFromCgroupPath(%q) = %q, %v, want %q, %v", tc.path, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func TestContainerRuntime(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"docker": "docker", "podman": "podman", "lxc": "lxc", "lxc-libvirt": "lxc",
		"systemd-nspawn": "unknown", "oci": "unknown", " Docker\n": "docker",
	} {
		if got := containerRuntime(in); got != want {
			t.Errorf("containerRuntime(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTracefsMount(t *testing.T) {
	t.Parallel()
	tracefs := func(dir string) mountInfo { return mountInfo{MountPoint: dir, FSType: "tracefs"} }
	tests := []struct {
		name   string
		mounts []mountInfo
		want   string
	}{
		{name: "none", mounts: []mountInfo{{MountPoint: "/sys/kernel/debug", FSType: "debugfs"}}, want: ""},
		{name: "modern", mounts: []mountInfo{tracefs("/sys/kernel/tracing")}, want: "/sys/kernel/tracing"},
		{name: "both: modern wins", mounts: []mountInfo{tracefs("/sys/kernel/debug/tracing"), tracefs("/sys/kernel/tracing")},
			want: "/sys/kernel/tracing"},
		{name: "debugfs only", mounts: []mountInfo{tracefs("/tmp/t"), tracefs("/sys/kernel/debug/tracing")}, want: "/sys/kernel/debug/tracing"},
		{name: "elsewhere", mounts: []mountInfo{tracefs("/tmp/t")}, want: "/tmp/t"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := tracefsMount(tc.mounts); got != tc.want {
				t.Errorf("tracefsMount = %q, want %q", got, tc.want)
			}
		})
	}
}
