package hostinfo

import (
	"os"
	"runtime"
	"slices"
	"testing"

	"golang.org/x/sys/unix"
)

// TestLive runs Info and Snapshot on the real host and checks that the answers
// agree with what the Go runtime and the kernel say by other routes.
func TestLive(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("needs Linux procfs")
	}
	h := New(Roots{})

	info, err := h.Info(t.Context(), &InfoOptions{HasBinary: func(string) bool { return true }})
	if err != nil {
		t.Fatalf("Info: %v", err)
	}
	t.Logf("info warnings: %q", info.Warnings)
	var uts unix.Utsname
	if err := unix.Uname(&uts); err != nil {
		t.Fatal(err)
	}
	if want := unix.ByteSliceToString(uts.Release[:]); info.System.Kernel != want {
		t.Errorf("kernel = %q, uname says %q", info.System.Kernel, want)
	}
	if want := unix.ByteSliceToString(uts.Machine[:]); info.System.Arch != want {
		t.Errorf("arch = %q, uname says %q", info.System.Arch, want)
	}
	if want, _ := os.Hostname(); info.System.Hostname != want {
		t.Errorf("hostname = %q, os.Hostname says %q", info.System.Hostname, want)
	}
	if info.CPU.Threads != runtime.NumCPU() {
		t.Errorf("threads = %d, runtime.NumCPU() = %d", info.CPU.Threads, runtime.NumCPU())
	}
	if c := info.CPU; c.Cores < 1 || c.Cores > c.Threads || c.Sockets < 1 || c.NUMANodes < 1 {
		t.Errorf("implausible cpu topology %+v", c)
	}
	if info.Memory.TotalBytes == 0 {
		t.Error("memory total is 0")
	}
	if info.System.UptimeSeconds <= 0 || info.System.BootTime == "" {
		t.Errorf("uptime %v, boot time %q", info.System.UptimeSeconds, info.System.BootTime)
	}
	if got, want := info.Capabilities.IsRoot, os.Geteuid() == 0; got != want {
		t.Errorf("is_root = %v, euid is %d", got, os.Geteuid())
	}
	if info.Virtualization.CgroupMode == "" {
		t.Error("cgroup mode unknown on a live Linux host")
	}

	snap, err := h.Snapshot(t.Context(), nil)
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	t.Logf("snapshot: %s (warnings %q)", snap.ShortSummary, snap.Warnings)
	if snap.CPUPercent < 0 || snap.CPUPercent > 100 {
		t.Errorf("cpu_percent = %v, want within [0,100]", snap.CPUPercent)
	}
	if snap.MemTotalBytes == 0 || snap.MemUsedBytes > snap.MemTotalBytes || snap.MemTotalMB == 0 {
		t.Errorf("implausible memory: total %d used %d", snap.MemTotalBytes, snap.MemUsedBytes)
	}
	if len(snap.Disks) == 0 {
		t.Fatal("no disks")
	}
	if !slices.ContainsFunc(snap.Disks, func(d Disk) bool { return d.Mount == "/" }) {
		t.Errorf("no / among disks %+v", snap.Disks)
	}
	for _, d := range snap.Disks {
		if d.TotalBytes == 0 || d.UsedPercent < 0 || d.UsedPercent > 100 {
			t.Errorf("implausible disk %+v", d)
		}
	}
	if snap.ShortSummary == "" {
		t.Error("empty summary")
	}
}
