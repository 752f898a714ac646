package kubernetes

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/hostmcp/hostmcp/internal/buildinfo"
)

// container is the DaemonSet's one container.
func container(t *testing.T, ds *appsv1.DaemonSet) *corev1.Container {
	t.Helper()
	if n := len(ds.Spec.Template.Spec.Containers); n != 1 || len(ds.Spec.Template.Spec.InitContainers) != 0 {
		t.Fatalf("%d containers and %d init containers, want one container", n, len(ds.Spec.Template.Spec.InitContainers))
	}
	return &ds.Spec.Template.Spec.Containers[0]
}

// volume is the pod's volume of that name.
func volume(t *testing.T, ds *appsv1.DaemonSet, name string) *corev1.Volume {
	t.Helper()
	for i, v := range ds.Spec.Template.Spec.Volumes {
		if v.Name == name {
			return &ds.Spec.Template.Spec.Volumes[i]
		}
	}
	t.Fatalf("no volume %q", name)
	return nil
}

// hostPathMount is the container's mount of the host's path, and its volume.
func hostPathMount(t *testing.T, ds *appsv1.DaemonSet, hostPath string) corev1.VolumeMount {
	t.Helper()
	for _, vm := range container(t, ds).VolumeMounts {
		if v := volume(t, ds, vm.Name); v.HostPath != nil && v.HostPath.Path == hostPath {
			return vm
		}
	}
	t.Fatalf("the host's %s is not mounted", hostPath)
	return corev1.VolumeMount{}
}

// TestDaemonSetSharesOnlyWhatItDiagnoses: the host's PID namespace and
// network (what the tools report on), a container that is not privileged,
// cannot gain privileges, writes only its volumes, and holds no API token.
func TestDaemonSetSharesOnlyWhatItDiagnoses(t *testing.T) {
	ds := load(t).DaemonSet
	pod := ds.Spec.Template.Spec
	if !pod.HostPID {
		t.Error("hostPID is false: the process tools would see only the pod")
	}
	if !pod.HostNetwork {
		t.Error("hostNetwork is false: the network counters would be the pod's")
	}
	if pod.HostIPC {
		t.Error("hostIPC is true; nothing needs it")
	}
	if pod.AutomountServiceAccountToken == nil || *pod.AutomountServiceAccountToken {
		t.Error("the pod mounts a service account token; hostmcp never calls the API")
	}
	if pod.SecurityContext == nil || pod.SecurityContext.SeccompProfile == nil || pod.SecurityContext.SeccompProfile.Type != corev1.SeccompProfileTypeRuntimeDefault {
		t.Error("no RuntimeDefault seccomp profile")
	}
	sc := container(t, ds).SecurityContext
	if sc == nil {
		t.Fatal("the container has no securityContext")
	}
	if sc.Privileged == nil || *sc.Privileged {
		t.Error("privileged is not false")
	}
	if sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation {
		t.Error("allowPrivilegeEscalation is not false (no_new_privs)")
	}
	if sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
		t.Error("the root file system is writable")
	}
	if sc.ProcMount != nil && *sc.ProcMount != corev1.DefaultProcMount {
		t.Errorf("procMount %q unmasks the container's /proc", *sc.ProcMount)
	}
}

// TestDaemonSetMountsHostReadOnly: the host's /proc and /sys are mounted
// read-only where the ConfigMap's [host] tells hostmcp to read them, and
// every other path of the host is read-only too.
func TestDaemonSetMountsHostReadOnly(t *testing.T) {
	m := load(t)
	cfg := loadConfig(t, m)
	for _, tc := range []struct{ host, want string }{{"/proc", cfg.Host.Proc}, {"/sys", cfg.Host.Sys}} {
		vm := hostPathMount(t, m.DaemonSet, tc.host)
		if vm.MountPath != tc.want {
			t.Errorf("the host's %s is mounted at %s; [host] reads %s", tc.host, vm.MountPath, tc.want)
		}
	}
	c := container(t, m.DaemonSet)
	for _, vm := range c.VolumeMounts {
		v := volume(t, m.DaemonSet, vm.Name)
		if v.HostPath != nil && !vm.ReadOnly {
			t.Errorf("the host's %s is mounted writable at %s", v.HostPath.Path, vm.MountPath)
		}
		if vm.MountPropagation != nil && *vm.MountPropagation == corev1.MountPropagationBidirectional {
			t.Errorf("%s propagates mounts to the host", vm.MountPath)
		}
	}
}

// toolsetCaps is what each toolset needs beyond root's files, as the
// README's capability table and packaging/hostmcp.service say (and
// packaging's TestUnitCapabilities checks on the real binary).
var toolsetCaps = map[string][]string{
	"files":      {"DAC_READ_SEARCH"},
	"search":     {"DAC_READ_SEARCH"},
	"edit":       {"DAC_READ_SEARCH"},
	"proc":       {"SYS_PTRACE", "DAC_READ_SEARCH"},
	"perf":       {"SYS_PTRACE", "DAC_READ_SEARCH", "BPF", "PERFMON"}, // perf_io_layers mode ebpf
	"trace":      {"BPF", "PERFMON"},
	"profile":    {"BPF", "PERFMON", "SYS_PTRACE", "SYSLOG"},
	"bpftrace":   {"BPF", "PERFMON", "SYSLOG"},
	"repl":       {"SYS_ADMIN", "SETPCAP"},
	"system":     nil,
	"stats":      nil,
	"onboarding": nil,
	"core":       nil,
}

// unitBoundingSet is packaging/hostmcp.service's CapabilityBoundingSet,
// without the CAP_ prefixes.
func unitBoundingSet(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("../../packaging/hostmcp.service")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "CapabilityBoundingSet="); ok {
			var out []string
			for _, c := range strings.Fields(v) {
				out = append(out, strings.TrimPrefix(c, "CAP_"))
			}
			return out
		}
	}
	t.Fatal("hostmcp.service has no CapabilityBoundingSet=")
	return nil
}

// TestDaemonSetCapabilities: every capability is dropped but those the
// served toolsets need, no more and no fewer, and none the packaged
// service does without.
func TestDaemonSetCapabilities(t *testing.T) {
	m := load(t)
	cfg := loadConfig(t, m)
	caps := container(t, m.DaemonSet).SecurityContext.Capabilities
	if caps == nil || !slices.Equal(caps.Drop, []corev1.Capability{"ALL"}) {
		t.Fatalf("capabilities %+v: want drop [ALL]", caps)
	}
	var want []string
	for _, ts := range cfg.Toolsets.Enabled {
		need, ok := toolsetCaps[ts]
		if !ok {
			t.Fatalf("toolset %q has no entry in toolsetCaps", ts)
		}
		want = append(want, need...)
	}
	slices.Sort(want)
	want = slices.Compact(want)
	var got []string
	for _, c := range caps.Add {
		got = append(got, string(c))
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("adds %v; the toolsets %v need %v", got, cfg.Toolsets.Enabled, want)
	}
	unit := unitBoundingSet(t)
	for _, c := range got {
		if !slices.Contains(unit, c) {
			t.Errorf("adds %s, which the packaged service (%v) does without", c, unit)
		}
	}
}

// containerPort resolves a probe's or Service's port, by name or number,
// to the container's port.
func containerPort(t *testing.T, c *corev1.Container, p intstr.IntOrString) int32 {
	t.Helper()
	for _, cp := range c.Ports {
		if (p.Type == intstr.String && cp.Name == p.StrVal) || (p.Type == intstr.Int && cp.ContainerPort == p.IntVal) {
			return cp.ContainerPort
		}
	}
	t.Fatalf("port %s is not one of the container's", p.String())
	return 0
}

// TestDaemonSetServesItsPort: the readiness probe asks /healthz on the port
// hostmcp listens on, which the Service and the ServiceMonitor name.
func TestDaemonSetServesItsPort(t *testing.T) {
	m := load(t)
	cfg := loadConfig(t, m)
	c := container(t, m.DaemonSet)
	served := listenPort(t, cfg.HTTP.Addr)

	p := c.ReadinessProbe
	if p == nil || p.HTTPGet == nil {
		t.Fatal("no HTTP readiness probe")
	}
	if p.HTTPGet.Path != "/healthz" {
		t.Errorf("readiness probe on %s, want /healthz (the one path without the token)", p.HTTPGet.Path)
	}
	if p.HTTPGet.Host != "" || (p.HTTPGet.Scheme != "" && p.HTTPGet.Scheme != corev1.URISchemeHTTP) {
		t.Errorf("readiness probe to host %q scheme %q, want the pod's IP over HTTP", p.HTTPGet.Host, p.HTTPGet.Scheme)
	}
	if got := containerPort(t, c, p.HTTPGet.Port); got != served {
		t.Errorf("readiness probe on port %d; hostmcp listens on %d", got, served)
	}

	svc := m.Service
	if svc.Spec.ClusterIP != corev1.ClusterIPNone {
		t.Errorf("Service clusterIP %q, want None (headless)", svc.Spec.ClusterIP)
	}
	for k, v := range svc.Spec.Selector {
		if m.DaemonSet.Spec.Template.Labels[k] != v {
			t.Errorf("the Service selects %s=%s, which the pods do not carry", k, v)
		}
	}
	if len(svc.Spec.Ports) != 1 || containerPort(t, c, svc.Spec.Ports[0].TargetPort) != served {
		t.Fatalf("Service ports %+v: want one, to port %d", svc.Spec.Ports, served)
	}

	sm := m.ServiceMonitor
	for k, v := range sm.Spec.Selector.MatchLabels {
		if svc.Labels[k] != v {
			t.Errorf("the ServiceMonitor selects %s=%s, which the Service does not carry", k, v)
		}
	}
	if !slices.Contains(sm.Spec.NamespaceSelector.MatchNames, svc.Namespace) {
		t.Errorf("the ServiceMonitor looks in %v, not %s", sm.Spec.NamespaceSelector.MatchNames, svc.Namespace)
	}
	if len(sm.Spec.Endpoints) != 1 {
		t.Fatalf("%d ServiceMonitor endpoints, want 1", len(sm.Spec.Endpoints))
	}
	ep := sm.Spec.Endpoints[0]
	if ep.Port != svc.Spec.Ports[0].Name || ep.Path != "/metrics" {
		t.Errorf("the ServiceMonitor scrapes port %q path %q, want %q /metrics", ep.Port, ep.Path, svc.Spec.Ports[0].Name)
	}
}

// TestDaemonSetLimits: requests and limits of CPU and memory, requests
// within limits, and bounded scratch volumes, so one node's hostmcp cannot
// starve the workloads it diagnoses.
func TestDaemonSetLimits(t *testing.T) {
	ds := load(t).DaemonSet
	r := container(t, ds).Resources
	for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		lim, ok := r.Limits[name]
		if !ok || lim.IsZero() {
			t.Errorf("no %s limit", name)
			continue
		}
		req, ok := r.Requests[name]
		if !ok || req.IsZero() {
			t.Errorf("no %s request", name)
		} else if req.Cmp(lim) > 0 {
			t.Errorf("%s request %s over its limit %s", name, req.String(), lim.String())
		}
	}
	for _, v := range ds.Spec.Template.Spec.Volumes {
		if v.EmptyDir != nil && (v.EmptyDir.SizeLimit == nil || v.EmptyDir.SizeLimit.IsZero()) {
			t.Errorf("emptyDir %q has no sizeLimit", v.Name)
		}
	}
}

// TestDaemonSetImage: the image is the one `make image` builds of this
// source tree, and runs hostmcp with the ConfigMap.
func TestDaemonSetImage(t *testing.T) {
	m := load(t)
	c := container(t, m.DaemonSet)
	if want := "hostmcp:" + buildinfo.Release; c.Image != want {
		t.Errorf("image %q, want %q (make image; README.md says where to push it)", c.Image, want)
	}
	if len(c.Command) != 0 {
		t.Errorf("command %v replaces the image's /usr/bin/hostmcp", c.Command)
	}
	cfgFile := configPath(t, m)
	if want := []string{"serve", "--config", cfgFile}; !slices.Equal(c.Args, want) {
		t.Errorf("args %v, want %v", c.Args, want)
	}
}
