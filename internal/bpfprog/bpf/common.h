/* Helpers shared by the hostmcp eBPF programs. */
#ifndef HOSTMCP_COMMON_H
#define HOSTMCP_COMMON_H

#define NO_SYSCALL 0xffffffffu /* a syscall this architecture lacks */

static __always_inline __u32 current_tgid(void)
{
	return bpf_get_current_pid_tgid() >> 32;
}

static __always_inline __u32 current_tid(void)
{
	return (__u32)bpf_get_current_pid_tgid();
}

/* fd_file is the current task's open file fd, or NULL. */
static __always_inline struct file *fd_file(__u32 fd)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
	if (!fdt || fd >= BPF_CORE_READ(fdt, max_fds))
		return 0;
	struct file **fds = BPF_CORE_READ(fdt, fd);
	struct file *f = 0;
	bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]);
	return f;
}

/* comm_is reports whether the current task's command is want (16 bytes,
 * NUL-padded). */
static __always_inline int comm_is(const volatile char *want)
{
	char comm[TASK_COMM_LEN] = {};
	bpf_get_current_comm(&comm, sizeof(comm));
	#pragma unroll
	for (int i = 0; i < TASK_COMM_LEN; i++) {
		if (comm[i] != want[i])
			return 0;
		if (!comm[i])
			break;
	}
	return 1;
}

#endif
