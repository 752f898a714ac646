package sessinit

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// mountHome mounts the session's private tmpfs on s.Home, owned by the
// user the program runs as. Mounted in init's own mount namespace, after
// privateProc made its mounts private: the host sees the directory empty.
func mountHome(s Setup) error {
	uid, gid := uint32(unix.Geteuid()), uint32(unix.Getegid())
	if s.User != nil {
		uid, gid = s.User.UID, s.User.GID
	}
	opts := fmt.Sprintf("size=%d,mode=0700,uid=%d,gid=%d", s.HomeBytes, uid, gid)
	if err := unix.Mount("tmpfs", s.Home, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("mounting the session's HOME: %w", err)
	}
	return nil
}
