package bpfprog

import "golang.org/x/sys/unix"

// nrs are the system call numbers the raw_syscalls programs match.
var nrs = sysnrs{
	execve: unix.SYS_EXECVE, execveat: unix.SYS_EXECVEAT,
	read: unix.SYS_READ, write: unix.SYS_WRITE, pread: unix.SYS_PREAD64, pwrite: unix.SYS_PWRITE64,
	readv: unix.SYS_READV, writev: unix.SYS_WRITEV,
	open: unix.SYS_OPEN, openat: unix.SYS_OPENAT, creat: unix.SYS_CREAT,
	unlink: unix.SYS_UNLINK, unlinkat: unix.SYS_UNLINKAT,
	connect: unix.SYS_CONNECT, close: unix.SYS_CLOSE,
	sendto: unix.SYS_SENDTO, sendmsg: unix.SYS_SENDMSG, sendmmsg: unix.SYS_SENDMMSG,
	recvfrom: unix.SYS_RECVFROM, recvmsg: unix.SYS_RECVMSG,
}
