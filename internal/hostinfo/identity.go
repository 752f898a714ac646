package hostinfo

import "fmt"

// Identity says which host and which boot of it a reading comes from: a
// reading kept for later (a baseline) is compared knowing whether the host
// restarted since, which resets every since-boot counter.
type Identity struct {
	Hostname string `json:"hostname"`
	BootID   string `json:"boot_id"`
}

// Identity reads the host name and the boot id the kernel draws at each
// boot (Documentation/admin-guide/sysctl/kernel.rst, random/boot_id).
func (h *Host) Identity() (Identity, error) {
	var id Identity
	var err error
	if id.Hostname, err = readTrimmed(h.procPath("sys", "kernel", "hostname")); err != nil {
		return Identity{}, fmt.Errorf("reading the host name: %w", err)
	}
	if id.BootID, err = readTrimmed(h.procPath("sys", "kernel", "random", "boot_id")); err != nil {
		return Identity{}, fmt.Errorf("reading the boot id: %w", err)
	}
	return id, nil
}
