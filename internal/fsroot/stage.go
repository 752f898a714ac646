package fsroot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// stage writes data to name beside the file, complete and synced before the
// name appears: an unnamed O_TMPFILE linked to name, or, where the file
// system has no O_TMPFILE, name itself, which the journal names so that
// recovery removes a partial one. The copy gets mode, and old's owner when
// hostmcp runs as root, as Write does.
func (s *site) stage(name string, data []byte, mode fs.FileMode, old *unix.Stat_t) error {
	named := false
	fd, err := unix.Openat(s.fd(), ".", unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o600)
	if err != nil && noTmpfile(err) {
		named = true
		fd, err = unix.Openat(s.fd(), name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	}
	if err != nil {
		return s.failed("staging the new content of", err)
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return s.failed("staging the new content of", err)
	}
	if err := f.Chmod(mode); err != nil {
		return s.failed("staging the new content of", err)
	}
	if old != nil && os.Geteuid() == 0 {
		_ = f.Chown(int(old.Uid), int(old.Gid)) // keep the owner; best effort
		_ = f.Chmod(mode)                       // chown clears setuid bits
	}
	if err := f.Sync(); err != nil {
		return s.failed("staging the new content of", err)
	}
	if named {
		return nil
	}
	err = unix.Linkat(unix.AT_FDCWD, fmt.Sprintf("/proc/self/fd/%d", fd), s.fd(), name, unix.AT_SYMLINK_FOLLOW)
	return s.failedIf("staging the new content of", err)
}

// noTmpfile recognises a file system without O_TMPFILE.
func noTmpfile(err error) bool {
	return errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.EISDIR) || errors.Is(err, unix.EINVAL)
}

// keep gives the file's current content a second name, so that it can be
// put back after the file was replaced or removed, and checks that it is
// the content the change was worked out from.
func (s *site) keep(name, wantSHA string) error {
	if err := unix.Linkat(s.fd(), s.base, s.fd(), name, 0); err != nil {
		return s.failed("keeping the old content of", err)
	}
	got, _, err := s.sum(name)
	if err != nil {
		return err
	}
	if got != wantSHA {
		return tool.Errorf(tool.ShaMismatch, "%q changed since the change was worked out (sha256 %s, not %s); nothing was written", tool.Clip(s.loc.Given), got, wantSHA).
			WithSuggestion("Read the file again (fs_read) and redo the change on its current content.")
	}
	return nil
}

// checkTarget checks the file a change starts from: absent for a creation
// (wantOld false), else a regular file, and for a replacement (write) one
// without other hard links, since the rename replaces this name only. It
// returns the file's mode.
func (s *site) checkTarget(wantOld, write bool) (*unix.Stat_t, error) {
	st, exists, err := s.lstat(s.base)
	if err != nil {
		return nil, err
	}
	given := tool.Clip(s.loc.Given)
	switch {
	case !wantOld && exists:
		return nil, tool.Errorf(tool.AlreadyExists, "%q already exists; nothing was written", tool.Clip(given)).
			WithSuggestion("Read it (fs_read) and change it with a diff of its content instead.")
	case !wantOld:
		return nil, nil
	case !exists:
		return nil, tool.Errorf(tool.NotFound, "%q no longer exists; nothing was written", tool.Clip(given)).
			WithSuggestion("List the directory (fs_list) and redo the change on the files as they are now.")
	}
	if m := fileMode(st.Mode); m&fs.ModeSymlink != 0 {
		return nil, tool.Errorf(tool.NotAFile, "%q is a symbolic link; only regular files are changed, nothing was written", tool.Clip(given)).
			WithSuggestion("Change the file it points to under its own path.")
	} else if !m.IsRegular() {
		return nil, notRegular(s.loc.Given, m)
	}
	if write && st.Nlink > 1 {
		return nil, tool.Errorf(tool.NotAFile, "%q has %d hard links: replacing it would leave its other names on the old content; nothing was written", tool.Clip(given), st.Nlink).
			WithSuggestion("Change it with fs_write and allow_hardlink: true, which replaces this name only.")
	}
	return &st, nil
}
