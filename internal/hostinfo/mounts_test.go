package hostinfo

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestRealMounts(t *testing.T) {
	t.Parallel()
	in := []mountInfo{
		{Dev: "8:1", MountPoint: "/etc/resolv.conf", FSType: "ext4"},
		{Dev: "0:52", MountPoint: "/", FSType: "overlay"},
		{Dev: "8:1", MountPoint: "/etc/hosts", FSType: "ext4"},
		{Dev: "0:21", MountPoint: "/proc", FSType: "proc"},
		{Dev: "0:23", MountPoint: "/dev/shm", FSType: "tmpfs"},
		{Dev: "7:3", MountPoint: "/snap/core/17200", FSType: "squashfs"},
		{Dev: "0:38", MountPoint: "/sys/fs/cgroup/unified", FSType: "cgroup2"},
		{Dev: "8:2", MountPoint: "/b", FSType: "xfs"},
		{Dev: "8:2", MountPoint: "/a", FSType: "xfs"},
	}
	want := []mountInfo{
		{Dev: "0:52", MountPoint: "/", FSType: "overlay"},
		{Dev: "8:2", MountPoint: "/a", FSType: "xfs"},
		{Dev: "8:1", MountPoint: "/etc/hosts", FSType: "ext4"},
	}
	if diff := cmp.Diff(realMounts(in), want); diff != "" {
		t.Errorf("realMounts mismatch (-got +want):\n%s", diff)
	}
}

func TestDiskFrom(t *testing.T) {
	t.Parallel()
	m := mountInfo{MountPoint: "/", Source: "/dev/vda", FSType: "ext4"}
	tests := []struct {
		name string
		st   Statfs
		want Disk
	}{
		{
			// df on this statfs prints 1K-blocks 4000, Used 2400, Available 1400, Use% 64%.
			name: "reserved blocks count as full",
			st:   Statfs{BlockSize: 1024, Blocks: 4000, BlocksFree: 1600, BlocksAvail: 1400, Files: 1000, FilesFree: 999},
			want: Disk{TotalBytes: 4096000, UsedBytes: 2457600, AvailBytes: 1433600, UsedPercent: 63.2, InodesUsedPercent: 0.1},
		},
		{name: "empty", st: Statfs{BlockSize: 4096, Blocks: 10, BlocksFree: 10, BlocksAvail: 10},
			want: Disk{TotalBytes: 40960, AvailBytes: 40960}},
		{name: "full to root", st: Statfs{BlockSize: 4096, Blocks: 10, BlocksFree: 1, BlocksAvail: 0},
			want: Disk{TotalBytes: 40960, UsedBytes: 36864, UsedPercent: 100}},
		{name: "inconsistent counts are clamped", st: Statfs{BlockSize: 1, Blocks: 10, BlocksFree: 20, BlocksAvail: 30, Files: 5, FilesFree: 9},
			want: Disk{TotalBytes: 10, AvailBytes: 10}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.want.Mount, tc.want.Device, tc.want.FSType = "/", "/dev/vda", "ext4"
			if diff := cmp.Diff(diskFrom(m, tc.st), tc.want); diff != "" {
				t.Errorf("diskFrom mismatch (-got +want):\n%s", diff)
			}
		})
	}
}

func TestDiskUsageErrorsAndTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release) // lets the hung statfs goroutine finish
	statfs := func(path string) (Statfs, error) {
		switch path {
		case "/hung":
			<-release
			return Statfs{}, errors.New("released")
		case "/denied":
			return Statfs{}, errors.New("permission denied")
		case "/empty":
			return Statfs{BlockSize: 4096}, nil
		}
		return Statfs{BlockSize: 1, Blocks: 100, BlocksFree: 50, BlocksAvail: 50}, nil
	}
	mounts := []mountInfo{{MountPoint: "/"}, {MountPoint: "/denied"}, {MountPoint: "/empty"}, {MountPoint: "/hung"}}
	var w warnings
	start := time.Now()
	got := diskUsage(t.Context(), mounts, statfs, 50*time.Millisecond, &w)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("diskUsage waited %v for a hung statfs, want about the 50ms timeout", d)
	}
	if len(got) != 1 || got[0].Mount != "/" || got[0].UsedPercent != 50 {
		t.Errorf("diskUsage = %+v, want only / at 50%%", got)
	}
	joined := strings.Join(w, "\n")
	for _, want := range []string{"/denied unknown: permission denied", "did not answer statfs"} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings %q lack %q", w, want)
		}
	}
}
