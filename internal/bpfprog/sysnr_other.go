//go:build !amd64 && !arm64

package bpfprog

// nrs match nothing where hostmcp does not know the system call numbers:
// the syscall-based tracers then see no calls.
var nrs = sysnrs{
	noSyscall, noSyscall, noSyscall, noSyscall, noSyscall, noSyscall, noSyscall, noSyscall, noSyscall, noSyscall, noSyscall, noSyscall, noSyscall,
	noSyscall, noSyscall, noSyscall, noSyscall, noSyscall, noSyscall, noSyscall,
}

// noSyscall is a system call this architecture lacks (bpf/common.h).
const noSyscall = 0xffffffff
