package hostinfo

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fixtureHost points a Host at testdata/<scenario>.
func fixtureHost(scenario string) *Host {
	dir := filepath.Join("testdata", scenario)
	return New(Roots{
		Proc:   filepath.Join(dir, "proc"),
		Sys:    filepath.Join(dir, "sys"),
		RootFS: filepath.Join(dir, "rootfs"),
	})
}

func TestInfoFixtures(t *testing.T) {
	t.Parallel()
	allCaps := capNames(0x1fffeffffff)
	dockerCaps := []string{"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_FSETID",
		"CAP_KILL", "CAP_SETGID", "CAP_SETUID", "CAP_SETPCAP", "CAP_NET_BIND_SERVICE",
		"CAP_NET_RAW", "CAP_SYS_CHROOT", "CAP_MKNOD", "CAP_AUDIT_WRITE", "CAP_SETFCAP"}
	tests := []struct {
		name      string
		binaries  []string
		want      Info
		wantWarns []string // substrings, one per warning, in order
	}{
		{
			// Captured from the Firecracker guest these tools were built on:
			// root with all capabilities but CAP_SYS_RESOURCE, hybrid cgroups,
			// no DMI, a /.dockerenv left in its image, tracefs mounted.
			name:     "kvm-hybrid",
			binaries: []string{"perf", "bpftrace"},
			want: Info{
				System: System{
					Hostname: "vm", Kernel: "6.18.44-fc-v445", KernelVersion: "#1 SMP PREEMPT_DYNAMIC @0",
					Arch: "x86_64", UptimeSeconds: 1629.91, BootTime: "2026-11-22T02:38:57Z",
				},
				CPU:    CPU{Model: "Intel(R) Xeon(R) Processor", Cores: 2, Threads: 2, Sockets: 1, NUMANodes: 1},
				Memory: Memory{TotalBytes: 24682416 * 1024, THPEnabled: true, THPMode: "madvise"},
				Virtualization: Virtualization{
					Type: "docker", VM: "kvm", Container: true,
					CgroupVersion: 1, CgroupMode: "hybrid", Cgroup2Mount: "/sys/fs/cgroup/unified",
				},
				Capabilities: Capabilities{
					IsRoot: true, EffectiveCaps: allCaps, ProgramCaps: allCaps,
					PerfEventsSupported: true, PerfEventParanoid: 2,
					PerfAvailable: true, PerfPermitted: true, BpftraceAvailable: true,
					BPFSupported: true, BPFAvailable: true, BTFAvailable: true, PSIEnabled: true,
					TracefsMounted: true, TracefsPath: "/sys/kernel/tracing", TracefsReadable: true,
				},
			},
		},
		{
			// Hand-made: a default docker container on a cgroup v2 GCE host.
			name: "docker-v2",
			want: Info{
				System: System{
					Hostname: "3f2a1b4c5d6e", Kernel: "6.8.0-45-generic",
					KernelVersion: "#45-Ubuntu SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024",
					Arch:          unameMachine(runtime.GOARCH), UptimeSeconds: 3600.5, BootTime: "2024-09-30T12:40:00Z",
				},
				CPU: CPU{Model: "AMD EPYC 7B13", Cores: 2, Threads: 4, Sockets: 1, NUMANodes: 1,
					ScalingGovernor: "performance"},
				Memory: Memory{TotalBytes: 16384000 * 1024, HugePagesEnabled: true, THPEnabled: true, THPMode: "always"},
				Virtualization: Virtualization{
					Type: "docker", VM: "kvm", Container: true,
					CgroupVersion: 2, CgroupMode: "v2", Cgroup2Mount: "/sys/fs/cgroup",
				},
				Capabilities: Capabilities{
					IsRoot: true, PerfEventsSupported: true, PerfEventParanoid: 4,
					EffectiveCaps: dockerCaps, ProgramCaps: dockerCaps,
				},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			has := func(name string) bool {
				for _, b := range tc.binaries {
					if b == name {
						return true
					}
				}
				return false
			}
			got, err := fixtureHost(tc.name).Info(t.Context(), &InfoOptions{HasBinary: has})
			if err != nil {
				t.Fatalf("Info: %v", err)
			}
			gotWarns := got.Warnings
			got.Warnings = nil
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("Info mismatch (-got +want):\n%s", diff)
			}
			if len(gotWarns) != len(tc.wantWarns) {
				t.Fatalf("warnings = %q, want %d matching %q", gotWarns, len(tc.wantWarns), tc.wantWarns)
			}
			for i, w := range tc.wantWarns {
				if !strings.Contains(gotWarns[i], w) {
					t.Errorf("warning %d = %q, want it to contain %q", i, gotWarns[i], w)
				}
			}
		})
	}
}

func TestSnapshotFixture(t *testing.T) {
	t.Parallel()
	const kib = 1024
	stats := map[string]Statfs{
		"/":            {BlockSize: 4096, Blocks: 1000, BlocksFree: 400, BlocksAvail: 350, Files: 100, FilesFree: 75},
		"/data/my vol": {BlockSize: 4096, Blocks: 2000, BlocksFree: 200, BlocksAvail: 100},
		"/etc/hosts":   {BlockSize: 1024, Blocks: 500, BlocksFree: 500, BlocksAvail: 500, Files: 10, FilesFree: 10},
	}
	statfs := func(path string) (Statfs, error) {
		st, ok := stats[path]
		if !ok {
			return Statfs{}, errors.New("statfs called for a mount that should have been left out: " + path)
		}
		return st, nil
	}
	got, err := fixtureHost("docker-v2").Snapshot(t.Context(), &SnapshotOptions{Window: time.Millisecond, Statfs: statfs})
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	want := Snapshot{
		CPUPercent: 0, // the fixture's /proc/stat does not move
		LoadAvg:    [3]float64{1.5, 0.75, 0.25}, TasksRunnable: 3, TasksTotal: 212,
		MemTotalBytes: 16384000 * kib, MemAvailableBytes: 12288000 * kib, MemUsedBytes: 4096000 * kib,
		MemUsedMB: 4000, MemTotalMB: 16000,
		SwapTotalBytes: 2097152 * kib, SwapUsedBytes: 1048576 * kib,
		Disks: []Disk{
			{Mount: "/", Device: "overlay", FSType: "overlay", TotalBytes: 4096000, UsedBytes: 2457600,
				AvailBytes: 1433600, UsedPercent: 63.2, InodesUsedPercent: 25},
			{Mount: "/data/my vol", Device: "/dev/sdb1", FSType: "ext4", TotalBytes: 8192000, UsedBytes: 7372800,
				AvailBytes: 409600, UsedPercent: 94.7},
			{Mount: "/etc/hosts", Device: "/dev/sda1", FSType: "ext4", TotalBytes: 512000, AvailBytes: 512000},
		},
		ShortSummary: "CPU 0%, load 1.50/0.75/0.25, RAM 3.9/15.6 GiB (25%), swap 1.0/2.0 GiB, " +
			"/data/my vol 95% used, / 63% used, /etc/hosts 0% used",
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("Snapshot mismatch (-got +want):\n%s", diff)
	}
}

func TestSnapshotMissingCore(t *testing.T) {
	t.Parallel()
	h := New(Roots{Proc: t.TempDir(), Sys: t.TempDir(), RootFS: t.TempDir()})
	if _, err := h.Snapshot(t.Context(), &SnapshotOptions{Window: time.Millisecond}); err == nil {
		t.Fatal("Snapshot of an empty proc root succeeded, want an error")
	}
}

func TestSnapshotCancelled(t *testing.T) {
	t.Parallel()
	h := fixtureHost("docker-v2")
	noDisk := func(string) (Statfs, error) { return Statfs{}, errors.New("no disks in this test") }

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := h.Snapshot(ctx, &SnapshotOptions{Statfs: noDisk}); !errors.Is(err, context.Canceled) {
		t.Errorf("Snapshot with a cancelled ctx: err = %v, want context.Canceled", err)
	}

	ctx, cancel = context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := h.Snapshot(ctx, &SnapshotOptions{Window: time.Minute, Statfs: noDisk})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Snapshot cancelled in its window: err = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Snapshot cancelled after 20ms returned after %v", d)
	}
}

func TestInfoCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := fixtureHost("docker-v2").Info(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Info with a cancelled ctx: err = %v, want context.Canceled", err)
	}
}

func TestInfoEmptyRoots(t *testing.T) {
	t.Parallel()
	h := New(Roots{Proc: t.TempDir(), Sys: t.TempDir(), RootFS: t.TempDir()})
	got, err := h.Info(t.Context(), nil)
	if err != nil {
		t.Fatalf("Info on empty roots: %v, want zero values and warnings", err)
	}
	if len(got.Warnings) == 0 {
		t.Error("Info on empty roots gave no warnings")
	}
	if got.Capabilities.PerfPermitted || got.Capabilities.BPFAvailable || got.Virtualization.Container {
		t.Errorf("Info on empty roots claims capabilities: %+v %+v", got.Capabilities, got.Virtualization)
	}
}
