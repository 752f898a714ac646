package hostinfo

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// BlockName maps a device number "major:minor" to the name sysfs gives it:
// the target of /sys/dev/block/<major:minor>, or the DEVNAME its uevent
// file gives. Anything it cannot name (not a device number, or no such
// device) comes back as it was.
func (h *Host) BlockName(dev string) string {
	major, minor, ok := strings.Cut(dev, ":")
	if !ok || !isUint(major) || !isUint(minor) {
		return dev
	}
	if l, err := os.Readlink(h.sysPath("dev", "block", dev)); err == nil {
		return filepath.Base(l)
	}
	if b, err := os.ReadFile(h.sysPath("dev", "block", dev, "uevent")); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if name, ok := strings.CutPrefix(line, "DEVNAME="); ok && name != "" {
				return name
			}
		}
	}
	return dev
}

// DiskOf is the disk a partition belongs to (vda for vda1), found the way
// sysfs links them: class/block/vda1 points into .../vda/vda1, which holds
// a partition file. A disk, or a name sysfs does not know, comes back as
// it was.
func (h *Host) DiskOf(name string) string {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/:") {
		return name
	}
	dir := h.sysPath("class", "block", name)
	if _, err := os.Stat(filepath.Join(dir, "partition")); err != nil {
		return name
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return name
	}
	return filepath.Base(filepath.Dir(real))
}

func isUint(s string) bool {
	_, err := strconv.ParseUint(s, 10, 32)
	return err == nil
}

// BlockDevice is one disk or partition sysfs lists in class/block.
type BlockDevice struct {
	Name         string // vda, vda1, nvme0n1p2, dm-0
	Major, Minor uint32
}

// BlockDevices lists the block devices of /sys/class/block with their
// numbers, so a tracer that reports device numbers can name them. A device
// whose dev file cannot be read or parsed is left out.
func (h *Host) BlockDevices() []BlockDevice {
	class := h.sysPath("class", "block")
	entries, _ := os.ReadDir(class)
	var out []BlockDevice
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(class, e.Name(), "dev"))
		if err != nil {
			continue
		}
		major, minor, ok := strings.Cut(strings.TrimSpace(string(b)), ":")
		ma, err1 := strconv.ParseUint(major, 10, 32)
		mi, err2 := strconv.ParseUint(minor, 10, 32)
		if ok && err1 == nil && err2 == nil {
			out = append(out, BlockDevice{Name: e.Name(), Major: uint32(ma), Minor: uint32(mi)})
		}
	}
	return out
}
