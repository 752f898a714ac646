package landlock

import "golang.org/x/sys/unix"

// nativeSyscalls are amd64's: open and creat exist beside openat, and x32
// calls share the 64-bit audit arch but set bit 30 of their number
// (__X32_SYSCALL_BIT).
func nativeSyscalls() (syscallTable, bool) {
	return syscallTable{
		arch:   unix.AUDIT_ARCH_X86_64,
		x32Bit: 0x40000000,
		denied: []uint32{
			unix.SYS_TRUNCATE, unix.SYS_FTRUNCATE, unix.SYS_CREAT, unix.SYS_OPEN_BY_HANDLE_AT,
			unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
		},
		enosys:  []uint32{unix.SYS_OPENAT2},
		flagged: []flagArg{{unix.SYS_OPEN, 1}, {unix.SYS_OPENAT, 2}},
	}, true
}
