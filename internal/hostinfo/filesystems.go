package hostinfo

import (
	"context"
	"path/filepath"
	"strings"
	"time"
)

// FilesystemUse is a mounted file system's capacity as df shows it, with
// the error count ext4 keeps in its superblock (since the last fsck) where
// the kernel exposes it.
type FilesystemUse struct {
	Disk
	Errors        *uint64 `json:"errors,omitempty"`          // ext2/3/4: errors recorded since the last fsck
	LastErrorTime string  `json:"last_error_time,omitempty"` // RFC 3339, when Errors > 0
	// DeletedOpen is looked for only on a file system over the warning
	// threshold: what deleting more files there would not free.
	DeletedOpen *DeletedOpen `json:"deleted_open,omitempty"`
}

// deletedScanBudget bounds the look for deleted open files.
const deletedScanBudget = 300 * time.Millisecond

// Filesystems reads the capacity of every real mount (one per device, no
// pseudo file systems), bounded against hung network mounts as the
// snapshot is, and the ext4 error counts. On a file system more than
// deletedAbove percent full it also looks for deleted files still held
// open (a look through every process's descriptors, worth its cost only
// where the caller will judge the space short).
func (h *Host) Filesystems(ctx context.Context, deletedAbove float64) ([]FilesystemUse, []string) {
	var w warnings
	mounts, err := h.mountInfo(h.procPath("self", "mountinfo"))
	if err != nil {
		w.add("file systems unknown: %v", err)
		return nil, w
	}
	devMounts := realMounts(mounts)
	byPoint := map[string]mountInfo{}
	for _, m := range devMounts {
		byPoint[m.MountPoint] = m
	}
	out := []FilesystemUse{}
	var full []string
	for _, d := range diskUsage(ctx, devMounts, unixStatfs, defaultStatfsTimeout, &w) {
		m := byPoint[d.Mount]
		fu := FilesystemUse{Disk: d}
		if strings.HasPrefix(m.FSType, "ext") {
			fu.Errors, fu.LastErrorTime = h.ext4Errors(m.Dev)
		}
		if d.UsedPercent > deletedAbove {
			full = append(full, m.Dev)
		}
		out = append(out, fu)
	}
	if len(full) > 0 {
		found := h.FindDeletedOpen(full, deletedScanBudget)
		for i := range out {
			out[i].DeletedOpen = found[byPoint[out[i].Mount].Dev]
		}
	}
	return out, w
}

// ext4Errors reads /sys/fs/ext4/<device>/errors_count and last_error_time
// for the block device dev ("major:minor"), named as the kernel names it.
func (h *Host) ext4Errors(dev string) (*uint64, string) {
	dir := h.sysPath("fs", "ext4", h.BlockName(dev))
	n, err := readUint(filepath.Join(dir, "errors_count"))
	if err != nil {
		return nil, ""
	}
	last := ""
	if n > 0 {
		if t, err := readUint(filepath.Join(dir, "last_error_time")); err == nil && t > 0 {
			last = time.Unix(int64(t), 0).UTC().Format(time.RFC3339)
		}
	}
	return &n, last
}
