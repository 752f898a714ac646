package execx

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// archTruncWays adds amd64's own: open(2) and creat(2) beside openat, and
// an x32 system call, which shares the 64-bit audit arch.
func archTruncWays(path string, ways map[string]func() error) {
	p, err := unix.BytePtrFromString(path)
	if err != nil {
		panic(err)
	}
	ways["open O_RDONLY|O_TRUNC"] = func() error {
		fd, _, errno := unix.Syscall(unix.SYS_OPEN, uintptr(unsafe.Pointer(p)), unix.O_RDONLY|unix.O_TRUNC|unix.O_CLOEXEC, 0)
		return closeFd(int(fd), errnoOrNil(errno))
	}
	ways["open O_WRONLY|O_TRUNC"] = func() error {
		fd, _, errno := unix.Syscall(unix.SYS_OPEN, uintptr(unsafe.Pointer(p)), unix.O_WRONLY|unix.O_TRUNC|unix.O_CLOEXEC, 0)
		return closeFd(int(fd), errnoOrNil(errno))
	}
	ways["creat"] = func() error {
		fd, _, errno := unix.Syscall(unix.SYS_CREAT, uintptr(unsafe.Pointer(p)), 0o644, 0)
		return closeFd(int(fd), errnoOrNil(errno))
	}
	ways["x32 truncate"] = func() error {
		const x32Bit, x32Truncate = 0x40000000, 76 // arch/x86/entry/syscalls/syscall_64.tbl
		_, _, errno := unix.Syscall(x32Bit|x32Truncate, uintptr(unsafe.Pointer(p)), 0, 0)
		return errnoOrNil(errno)
	}
}
