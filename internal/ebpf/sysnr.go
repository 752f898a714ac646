package ebpf

// noSyscall is a system call this architecture lacks (bpf/common.h).
const noSyscall = 0xffffffff

type sysnrs struct {
	execve, execveat                          uint32
	read, write, pread, pwrite, readv, writev uint32
	open, openat, creat, unlink, unlinkat     uint32
}
