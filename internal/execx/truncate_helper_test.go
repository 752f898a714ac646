package execx

import (
	"errors"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// truncWays are the ways a program can try to truncate path, each run
// with the system call itself so that no library can pick another one.
func truncWays(path string) map[string]func() error {
	ways := map[string]func() error{
		"truncate": func() error { return unix.Truncate(path, 0) },
		"openat O_RDONLY|O_TRUNC": func() error {
			return closeFd(unix.Open(path, unix.O_RDONLY|unix.O_TRUNC|unix.O_CLOEXEC, 0))
		},
		"openat O_WRONLY|O_TRUNC": func() error {
			return closeFd(unix.Open(path, unix.O_WRONLY|unix.O_TRUNC|unix.O_CLOEXEC, 0))
		},
		"openat O_RDWR|O_CREAT|O_TRUNC": func() error {
			return closeFd(unix.Open(path, unix.O_RDWR|unix.O_CREAT|unix.O_TRUNC|unix.O_CLOEXEC, 0o644))
		},
		"openat2 O_RDONLY|O_TRUNC": func() error {
			return closeFd(unix.Openat2(unix.AT_FDCWD, path, &unix.OpenHow{Flags: unix.O_RDONLY | unix.O_TRUNC | unix.O_CLOEXEC}))
		},
		"io_uring_setup": func() error {
			var params [120]byte // struct io_uring_params
			fd, _, errno := unix.Syscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&params)), 0)
			return closeFd(int(fd), errnoOrNil(errno))
		},
		"open_by_handle_at": func() error {
			// A handle that names nothing: the call fails anyway, but not
			// with EPERM, unless refused before it runs.
			handle := make([]byte, 8+128)
			*(*uint32)(unsafe.Pointer(&handle[0])) = 128
			cwd := unix.AT_FDCWD
			fd, _, errno := unix.Syscall(unix.SYS_OPEN_BY_HANDLE_AT, uintptr(cwd), uintptr(unsafe.Pointer(&handle[0])), unix.O_RDONLY|unix.O_TRUNC)
			return closeFd(int(fd), errnoOrNil(errno))
		},
		"ftruncate /dev/null": func() error {
			// The one file a confined child may open for writing.
			fd, err := unix.Open("/dev/null", unix.O_WRONLY|unix.O_CLOEXEC, 0)
			if err != nil {
				return err
			}
			defer unix.Close(fd)
			return unix.Ftruncate(fd, 0)
		},
	}
	archTruncWays(path, ways)
	return ways
}

func closeFd(fd int, err error) error {
	if err == nil {
		unix.Close(fd)
	}
	return err
}

func errnoOrNil(errno unix.Errno) error {
	if errno == 0 {
		return nil
	}
	return errno
}

// helperTruncate tries every way on every path, then reads and writes each,
// and prints one "way\tpath\terrno name" line per attempt ("ok" when it
// worked).
func helperTruncate(paths []string) int {
	for _, path := range paths {
		for name, try := range truncWays(path) {
			fmt.Printf("%s\t%s\t%s\n", name, path, errName(try()))
		}
		_, err := os.ReadFile(path)
		fmt.Printf("read\t%s\t%s\n", path, errName(err))
		err = closeFd(unix.Open(path, unix.O_WRONLY|unix.O_CLOEXEC, 0))
		fmt.Printf("write\t%s\t%s\n", path, errName(err))
	}
	return 0
}

func errName(err error) string {
	var errno unix.Errno
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &errno):
		return unix.ErrnoName(errno)
	default:
		return err.Error()
	}
}
