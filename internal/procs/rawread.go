package procs

import (
	"errors"

	"golang.org/x/sys/unix"
)

// readInto reads a small procfs file into buf with plain open, read and
// close. os.ReadFile costs twice the system calls (fstat, a poller
// registration that fails for procfs) and an allocation per file, which
// is most of proc_list's time on a host with thousands of processes; a
// listing has to beat ps, which reads the same files this way.
func readInto(path string, buf []byte) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	for errors.Is(err, unix.EINTR) {
		fd, err = unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	n := 0
	for n < len(buf) {
		m, err := unix.Read(fd, buf[n:])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if m == 0 {
			break
		}
		n += m
	}
	return buf[:n], nil
}
