package bpfprog

import "golang.org/x/sys/unix"

// mayLoad reports whether this thread may load and attach tracing
// programs: CAP_BPF with CAP_PERFMON (tracing programs need both), or
// CAP_SYS_ADMIN. Being uid 0 without them is not enough (a container's
// root), and with them any uid is. internal/privilege judges the same rule
// from /proc before a tool's call starts; this is the library's own net.
func mayLoad() bool {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if unix.Capget(&hdr, &data[0]) != nil {
		return false
	}
	has := func(c int) bool { return data[c/32].Effective&(1<<(c%32)) != 0 }
	return has(unix.CAP_SYS_ADMIN) || has(unix.CAP_BPF) && has(unix.CAP_PERFMON)
}
