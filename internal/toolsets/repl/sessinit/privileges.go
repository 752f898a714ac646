package sessinit

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// dropPrivileges gives up, on this thread, every capability but keep: it
// empties the bounding and ambient sets (so no exec, not even of a
// set-user-ID or file-capability binary, can bring any back), the
// inheritable set, and the permitted and effective sets but for keep. It
// sets no_new_privs and makes init non-dumpable (the program, even as the
// same user, cannot ptrace or read it). Init keeps CAP_SETUID and
// CAP_SETGID only when the program must run as another user: the program's
// fork needs them to switch, and loses them, with everything else, when it
// does (the kernel clears a process's capabilities when it leaves uid 0).
func dropPrivileges(keep ...int) error {
	for c := 0; ; c++ {
		err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
		if errors.Is(err, unix.EINVAL) {
			break // past the last capability this kernel knows
		}
		if err != nil {
			return fmt.Errorf("dropping capability %d from the bounding set: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("clearing the ambient capabilities: %w", err)
	}
	if err := setCaps(keep...); err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("setting no_new_privs: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("making the session init non-dumpable: %w", err)
	}
	return nil
}

// setCaps makes caps this thread's permitted and effective sets, and
// empties its inheritable set. It can only lower them.
func setCaps(caps ...int) error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3} // Pid 0: this thread
	var data [2]unix.CapUserData
	for _, c := range caps {
		data[c/32].Permitted |= 1 << (c % 32)
		data[c/32].Effective |= 1 << (c % 32)
	}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("dropping capabilities: %w", err)
	}
	return nil
}
