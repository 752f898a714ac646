package landlock

import (
	"errors"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Why a seccomp filter stands in for Landlock's truncate right.
//
// When a ruleset handles LANDLOCK_ACCESS_FS_TRUNCATE, the kernel asks for
// that right on every open (hook_file_open caches it in the file for a
// later ftruncate). A policy that grants it nowhere, as ripgrep's does,
// makes that question walk from every opened file up to the root of the
// mount namespace instead of stopping at the rule of the searched
// directory: half of what Landlock costs a search (bench/RESULTS.md, issue
// 20). For such a policy RestrictThread leaves the right unhandled and the
// calling thread, and the child it forks, get this filter instead, which
// refuses every way to truncate a file before Landlock is asked:
//
//   - truncate(2), truncate64, ftruncate(2) and ftruncate64: EPERM;
//   - open(2) and openat(2) with O_TRUNC in their flags, creat(2) always:
//     EPERM. O_RDONLY|O_TRUNC truncates on Linux, and Landlock, once the
//     right is not handled, only checks reading for it;
//   - openat2(2): ENOSYS, its flags are in memory a filter cannot read, and
//     libc and Rust's std fall back to openat on ENOSYS;
//   - open_by_handle_at(2): EPERM, whatever its flags;
//   - io_uring_setup, io_uring_enter and io_uring_register: EPERM, io_uring
//     opens files without the system calls above;
//   - any system call of another ABI (32-bit int 0x80 calls have other
//     numbers) and, on amd64, the x32 ones: EPERM.
//
// Every refusal is an error number, never a kill: until it forks, the
// filtered thread is one of the server's.

// ErrNoFilter means this architecture has no truncation filter, so Landlock
// keeps handling the truncate right.
var ErrNoFilter = errors.New("no seccomp filter against truncation for this architecture")

// The offsets of struct seccomp_data's fields (linux/seccomp.h), and of
// the low 32 bits of an argument on a little-endian machine: the flags of
// open and openat are an int, whose upper bits the kernel ignores.
const (
	offNr   = 0
	offArch = 4
	offArgs = 16
)

// syscallTable is what the filter needs to know of an architecture, built
// from the numbers golang.org/x/sys/unix defines for it.
type syscallTable struct {
	arch    uint32   // AUDIT_ARCH_* of the native ABI
	x32Bit  uint32   // set in the numbers of a second ABI sharing arch (amd64's x32); 0 if none
	denied  []uint32 // refused with EPERM
	enosys  []uint32 // refused with ENOSYS, so that callers fall back
	flagged []flagArg
}

// flagArg is a system call refused when its open flags hold O_TRUNC.
type flagArg struct {
	nr  uint32
	arg uint32 // index of the flags argument
}

func retErrno(errno unix.Errno) unix.SockFilter {
	return stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ERRNO|uint32(errno)&unix.SECCOMP_RET_DATA)
}

func stmt(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }

func jump(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
	return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
}

// truncateFilter is the program: every test is followed by its own
// answer, so no jump reaches past the next four instructions.
func truncateFilter(t syscallTable) []unix.SockFilter {
	const (
		load = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge  = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		jset = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
	)
	allow := stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ALLOW)
	eperm := retErrno(unix.EPERM)
	prog := []unix.SockFilter{
		stmt(load, offArch),
		jump(jeq, t.arch, 1, 0),
		eperm,
		stmt(load, offNr),
	}
	if t.x32Bit != 0 {
		prog = append(prog, jump(jge, t.x32Bit, 0, 1), eperm)
	}
	for _, nr := range t.denied {
		prog = append(prog, jump(jeq, nr, 0, 1), eperm)
	}
	for _, nr := range t.enosys {
		prog = append(prog, jump(jeq, nr, 0, 1), retErrno(unix.ENOSYS))
	}
	for _, f := range t.flagged {
		prog = append(prog,
			jump(jeq, f.nr, 0, 4),
			stmt(load, offArgs+8*f.arg),
			jump(jset, unix.O_TRUNC, 0, 1),
			eperm,
			allow, // the flags replaced the number in the accumulator: answer here
		)
	}
	return append(prog, allow)
}

// denyTruncation installs the filter on the calling thread only (no
// SECCOMP_FILTER_FLAG_TSYNC), which must hold no_new_privs already; what
// the thread forks from now on inherits it, and nothing can remove it.
func denyTruncation() error {
	t, ok := nativeSyscalls()
	if !ok {
		return ErrNoFilter
	}
	prog := truncateFilter(t)
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fprog))); errno != 0 {
		return fmt.Errorf("seccomp(SECCOMP_SET_MODE_FILTER): %w", errno)
	}
	return nil
}
