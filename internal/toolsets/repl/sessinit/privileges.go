package sessinit

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// escapeCaps are the capabilities a session never gets, even as root: each
// would let it leave its namespaces (setns, unmounting the private /proc),
// read other processes' or the kernel's memory (ptrace, /dev/mem, BPF, perf
// events), or change the kernel itself (modules, reboot, LSM policy).
// Everything else root may do stays: an SRE's REPL as root can still read
// and write any file and manage processes it can see.
var escapeCaps = []int{
	unix.CAP_SYS_ADMIN,
	unix.CAP_SYS_PTRACE,
	unix.CAP_SYS_MODULE,
	unix.CAP_SYS_RAWIO,
	unix.CAP_SYS_BOOT,
	unix.CAP_BPF,
	unix.CAP_PERFMON,
	unix.CAP_MAC_ADMIN,
	unix.CAP_MAC_OVERRIDE,
}

// dropPrivileges removes escapeCaps from this thread's bounding,
// inheritable, permitted and effective sets (so neither init nor anything
// it forks from this thread has them, and no exec can bring them back),
// sets no_new_privs (no setuid binary can regain them) and makes init
// non-dumpable (the program, though root, cannot ptrace or read it).
func dropPrivileges() error {
	for _, c := range escapeCaps {
		// EINVAL: a capability this kernel does not know, so nobody has it.
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
			return fmt.Errorf("dropping capability %d from the bounding set: %w", c, err)
		}
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3} // Pid 0: this thread
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("reading capabilities: %w", err)
	}
	for _, c := range escapeCaps {
		word, bit := c/32, uint32(1)<<(c%32)
		data[word].Effective &^= bit
		data[word].Permitted &^= bit
		data[word].Inheritable &^= bit
	}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("dropping capabilities: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("setting no_new_privs: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("making the session init non-dumpable: %w", err)
	}
	return nil
}
