// SPDX-License-Identifier: GPL-2.0
/* perf_file_trace opens and file_lifecycle: open, openat and creat (the
 * path and flags at raw_syscalls sys_enter) and unlink, unlinkat (the
 * path), each sent as a record with its result at sys_exit. */
#include "types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "common.h"
#include "ring.h"

const volatile __u32 nr_open = NO_SYSCALL, nr_openat = NO_SYSCALL, nr_creat = NO_SYSCALL;
const volatile __u32 nr_unlink = NO_SYSCALL, nr_unlinkat = NO_SYSCALL;
const volatile __u32 target_tgid = 0;
const volatile __u32 self_tgid = 0;

#define O_CREAT_TRUNC_WRONLY 01101 /* what creat() means */

enum { OP_OPEN = 0, OP_UNLINK = 1 };

struct file_event {
	__u64 ts;
	__s64 ret;
	__u32 pid;
	__u32 uid;
	__u32 op;
	__u32 flags;
	__s32 dirfd; /* AT_FDCWD (-100) or a directory descriptor */
	__u32 _pad;
	char comm[TASK_COMM_LEN];
	char path[256];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, struct file_event);
} pending SEC(".maps");

static const struct file_event empty;

SEC("tracepoint/raw_syscalls/sys_enter")
int on_enter(struct trace_event_raw_sys_enter *ctx)
{
	long id = BPF_CORE_READ(ctx, id);
	const char *path;
	__u32 op, flags = 0;
	__s32 dirfd = -100;
	if (id == nr_openat) {
		op = OP_OPEN;
		dirfd = BPF_CORE_READ(ctx, args[0]);
		path = (const char *)BPF_CORE_READ(ctx, args[1]);
		flags = BPF_CORE_READ(ctx, args[2]);
	} else if (id == nr_open) {
		op = OP_OPEN;
		path = (const char *)BPF_CORE_READ(ctx, args[0]);
		flags = BPF_CORE_READ(ctx, args[1]);
	} else if (id == nr_creat) {
		op = OP_OPEN;
		path = (const char *)BPF_CORE_READ(ctx, args[0]);
		flags = O_CREAT_TRUNC_WRONLY;
	} else if (id == nr_unlinkat) {
		op = OP_UNLINK;
		dirfd = BPF_CORE_READ(ctx, args[0]);
		path = (const char *)BPF_CORE_READ(ctx, args[1]);
		flags = BPF_CORE_READ(ctx, args[2]);
	} else if (id == nr_unlink) {
		op = OP_UNLINK;
		path = (const char *)BPF_CORE_READ(ctx, args[0]);
	} else {
		return 0;
	}
	__u32 tgid = current_tgid();
	if ((target_tgid && tgid != target_tgid) || tgid == self_tgid)
		return 0;
	__u32 tid = current_tid();
	if (bpf_map_update_elem(&pending, &tid, &empty, BPF_ANY))
		return 0;
	struct file_event *e = bpf_map_lookup_elem(&pending, &tid);
	if (!e)
		return 0;
	e->ts = bpf_ktime_get_ns();
	e->op = op;
	e->flags = flags;
	e->dirfd = dirfd;
	bpf_probe_read_user_str(&e->path, sizeof(e->path), path);
	return 0;
}

SEC("tracepoint/raw_syscalls/sys_exit")
int on_exit(struct trace_event_raw_sys_exit *ctx)
{
	__u32 tid = current_tid();
	struct file_event *e = bpf_map_lookup_elem(&pending, &tid);
	if (!e)
		return 0;
	e->ret = BPF_CORE_READ(ctx, ret);
	e->pid = current_tgid();
	e->uid = (__u32)bpf_get_current_uid_gid();
	bpf_get_current_comm(&e->comm, sizeof(e->comm));
	emit(e, sizeof(*e));
	bpf_map_delete_elem(&pending, &tid);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
