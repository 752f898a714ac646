package fsroot

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// OpenFD is Open without the *os.File: the bare descriptor, which the
// caller closes with unix.Close, and the file's size when it was checked
// (-1 when the kernel did not say). The checks are Open's, on the same
// descriptor. A search re-reads hundreds of candidate files a call, and an
// *os.File costs each of them two system calls more (Go asks the file's
// flags and tries to add it to its poller, which refuses a regular file), a
// finalizer and an allocation; the size lets a reader stop after one read
// when it got exactly that much.
func (r *Reported) OpenFD(rel string) (fd int, size int64, err error) {
	dir, base, ok := splitReported(rel)
	if !ok {
		return -1, -1, fs.ErrInvalid
	}
	r.mu.Lock()
	defer r.mu.Unlock() // held while dir's descriptor is in use: forget may close it
	dfd := r.dir(dir)
	if dfd < 0 {
		return -1, -1, fs.ErrNotExist
	}
	fd, err = unix.Openat(dfd, base, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, -1, err
	}
	id, kind, size, err := statxFile(fd, "", unix.AT_EMPTY_PATH)
	switch {
	case err != nil:
	case kind != unix.S_IFREG:
		err = fs.ErrInvalid
	case !r.fence.admitsID(id):
		err = fs.ErrPermission
	}
	if err != nil {
		unix.Close(fd)
		return -1, -1, err
	}
	return fd, size, nil
}
