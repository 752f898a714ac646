package bpfprog

// sysnrs are the system call numbers the raw_syscalls programs match, per
// architecture (sysnr_*.go); 0xffffffff (NO_SYSCALL in bpf/common.h) is one
// the architecture lacks.
type sysnrs struct {
	execve, execveat                          uint32
	read, write, pread, pwrite, readv, writev uint32
	open, openat, creat, unlink, unlinkat     uint32
	connect, close                            uint32
	sendto, sendmsg, sendmmsg                 uint32
	recvfrom, recvmsg                         uint32
}
