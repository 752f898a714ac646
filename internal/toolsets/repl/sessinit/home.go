package sessinit

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// mountHome mounts the session's private tmpfs on s.Cover and makes s.Home
// on it, owned by the user the program runs as. Mounted in init's own mount
// namespace, after privateProc made its mounts private: the host sees the
// state directory as it was, and nothing of the session.
func mountHome(s Setup) error {
	uid, gid := unix.Geteuid(), unix.Getegid()
	if s.User != nil {
		uid, gid = int(s.User.UID), int(s.User.GID)
	}
	opts := fmt.Sprintf("size=%d,mode=0711", s.HomeBytes)
	if err := unix.Mount("tmpfs", s.Cover, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("mounting the session's private directory: %w", err)
	}
	if err := unix.Mkdir(s.Home, 0o700); err != nil {
		return fmt.Errorf("making the session's HOME: %w", err)
	}
	if err := unix.Chown(s.Home, uid, gid); err != nil {
		return fmt.Errorf("giving the session's HOME to its user: %w", err)
	}
	return nil
}
