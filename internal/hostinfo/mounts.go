package hostinfo

import (
	"context"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/figures"
)

// Disk is the usage of one mounted filesystem, as df reports it.
type Disk struct {
	Mount             string  `json:"mount"`
	Device            string  `json:"device"`
	FSType            string  `json:"fstype"`
	TotalBytes        uint64  `json:"total_bytes"`
	UsedBytes         uint64  `json:"used_bytes"`
	AvailBytes        uint64  `json:"avail_bytes"`  // available to unprivileged users
	UsedPercent       float64 `json:"used_percent"` // used/(used+avail), as df: reserved blocks count as full
	InodesUsedPercent float64 `json:"inodes_used_percent"`
}

// Statfs is the part of statfs(2) that disk usage needs.
type Statfs struct {
	BlockSize   uint64 // fragment size, the unit of the block counts
	Blocks      uint64
	BlocksFree  uint64 // free, including blocks reserved for root
	BlocksAvail uint64 // free for unprivileged users
	Files       uint64
	FilesFree   uint64
}

// pseudoFS are filesystem types with no disk behind them, or whose usage means
// nothing to an operator (squashfs snap images are always 100% full). overlay
// stays: it is a container's root.
var pseudoFS = map[string]bool{
	"proc": true, "sysfs": true, "tmpfs": true, "devtmpfs": true, "ramfs": true,
	"cgroup": true, "cgroup2": true, "squashfs": true, "nsfs": true, "tracefs": true,
	"debugfs": true, "securityfs": true, "pstore": true, "bpf": true, "autofs": true,
	"mqueue": true, "hugetlbfs": true, "configfs": true, "fusectl": true,
	"binfmt_misc": true, "devpts": true, "efivarfs": true, "rpc_pipefs": true,
	"selinuxfs": true, "rootfs": true, "nfsd": true, "fuse.lxcfs": true,
	"fuse.snapfuse": true, "fuse.gvfsd-fuse": true, "fuse.portal": true, "pidfs": true,
}

// realMounts keeps the mounts worth a df line: no pseudo filesystems, and one
// mount per device, the shortest mount point, so bind mounts are counted once.
func realMounts(mounts []mountInfo) []mountInfo {
	byDev := map[string]mountInfo{}
	for _, m := range mounts {
		if pseudoFS[m.FSType] {
			continue
		}
		prev, seen := byDev[m.Dev]
		if !seen || len(m.MountPoint) < len(prev.MountPoint) ||
			(len(m.MountPoint) == len(prev.MountPoint) && m.MountPoint < prev.MountPoint) {
			byDev[m.Dev] = m
		}
	}
	out := make([]mountInfo, 0, len(byDev))
	for _, m := range byDev {
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b mountInfo) int { return strings.Compare(a.MountPoint, b.MountPoint) })
	return out
}

func (h *Host) mountInfo(path string) ([]mountInfo, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseMountInfo(b)
}

// unixStatfs is the default Statfs: statfs(2) on the live host.
func unixStatfs(path string) (Statfs, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return Statfs{}, err
	}
	bsize := uint64(st.Frsize)
	if bsize == 0 {
		bsize = uint64(st.Bsize)
	}
	return Statfs{BlockSize: bsize, Blocks: st.Blocks, BlocksFree: st.Bfree,
		BlocksAvail: st.Bavail, Files: st.Files, FilesFree: st.Ffree}, nil
}

// diskUsage statfs's every mount at once and waits at most timeout: a hung NFS
// server must cost one warning, not the whole snapshot. A statfs that never
// returns leaves its goroutine blocked in the kernel until it does.
func diskUsage(ctx context.Context, mounts []mountInfo, statfs func(string) (Statfs, error), timeout time.Duration, w *warnings) []Disk {
	type result struct {
		i   int
		st  Statfs
		err error
	}
	results := make(chan result, len(mounts)) // buffered: late senders never block
	for i, m := range mounts {
		go func() {
			st, err := statfs(m.MountPoint)
			results <- result{i, st, err}
		}()
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	got := make([]*Statfs, len(mounts))
	for range mounts {
		select {
		case r := <-results:
			if r.err != nil {
				w.add("disk usage of %s unknown: %v", mounts[r.i].MountPoint, r.err)
				continue
			}
			got[r.i] = &r.st
		case <-timer.C:
			w.add("disk usage: some mounts did not answer statfs within %v and are left out", timeout)
			return disks(mounts, got)
		case <-ctx.Done():
			return disks(mounts, got)
		}
	}
	return disks(mounts, got)
}

func disks(mounts []mountInfo, stats []*Statfs) []Disk {
	out := []Disk{}
	for i, st := range stats {
		// Zero blocks: a filesystem with no size (like df's default listing, skip it).
		if st == nil || st.Blocks == 0 {
			continue
		}
		out = append(out, diskFrom(mounts[i], *st))
	}
	return out
}

// diskFrom computes df's numbers (coreutils df.c): used = blocks - free,
// used% = used / (used + avail), rounded to 0.1.
func diskFrom(m mountInfo, st Statfs) Disk {
	free := min(st.BlocksFree, st.Blocks)
	avail := min(st.BlocksAvail, free)
	used := st.Blocks - free
	d := Disk{
		Mount: m.MountPoint, Device: m.Source, FSType: m.FSType,
		TotalBytes: st.Blocks * st.BlockSize,
		UsedBytes:  used * st.BlockSize,
		AvailBytes: avail * st.BlockSize,
	}
	if used+avail > 0 {
		d.UsedPercent = figures.Round1(float64(used) / float64(used+avail) * 100)
	}
	if st.Files > 0 {
		ffree := min(st.FilesFree, st.Files)
		d.InodesUsedPercent = figures.Round1(float64(st.Files-ffree) / float64(st.Files) * 100)
	}
	return d
}
