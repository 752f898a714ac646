package ebpf

import "golang.org/x/sys/unix"

// hasCaps reports whether this thread holds CAP_BPF and CAP_PERFMON.
func hasCaps() bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if unix.Capget(&hdr, &data[0]) != nil {
		return false
	}
	has := func(c int) bool { return data[c/32].Effective&(1<<(c%32)) != 0 }
	return has(unix.CAP_BPF) && has(unix.CAP_PERFMON)
}
