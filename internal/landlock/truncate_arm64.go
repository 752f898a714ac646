package landlock

import "golang.org/x/sys/unix"

// nativeSyscalls are arm64's: no open, creat or truncate64, only openat;
// 32-bit arm calls carry another audit arch and are refused by it.
func nativeSyscalls() (syscallTable, bool) {
	return syscallTable{
		arch: unix.AUDIT_ARCH_AARCH64,
		denied: []uint32{
			unix.SYS_TRUNCATE, unix.SYS_FTRUNCATE, unix.SYS_OPEN_BY_HANDLE_AT,
			unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
		},
		enosys:  []uint32{unix.SYS_OPENAT2},
		flagged: []flagArg{{unix.SYS_OPENAT, 2}},
	}, true
}
