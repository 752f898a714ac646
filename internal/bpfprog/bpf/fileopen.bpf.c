// SPDX-License-Identifier: GPL-2.0
/* perf_file_trace opens and file_lifecycle: open, openat and creat (the
 * path and flags at raw_syscalls sys_enter) and unlink, unlinkat (the
 * path), each counted at sys_exit with its result and latency, by process,
 * path and errno in by_path, and sent as a record. The counts cover every
 * call of the window: a full ring loses records, never counts. */
#include "types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "common.h"
#include "names.h"
#include "ring.h"

const volatile __u32 nr_open = NO_SYSCALL, nr_openat = NO_SYSCALL, nr_creat = NO_SYSCALL;
const volatile __u32 nr_unlink = NO_SYSCALL, nr_unlinkat = NO_SYSCALL;
const volatile __u32 target_tgid = 0;
const volatile __u32 self_tgid = 0;
const volatile __u8 all_paths = 0; /* also opens under /proc, /sys and /dev */

#define O_CREAT 0100
#define O_CREAT_TRUNC_WRONLY 01101 /* what creat() means */

enum { OP_OPEN = 0, OP_UNLINK = 1 };

/* A row of by_path: the process, the operation, its errno (0: it
 * succeeded), and the path as the process passed it, relative to dirfd. */
struct path_key {
	__u32 tgid;
	__u32 op;
	__u32 err;
	__s32 dirfd; /* AT_FDCWD (-100) or a directory descriptor */
	char path[256];
};

struct path_stat {
	__u64 count;
	__u64 total_ns;
	__u64 max_ns;
};

/* Per operation, every call: also those by_path had no room for. */
struct op_total {
	__u64 calls;
	__u64 failed;
	__u64 unkeyed; /* calls counted here only: by_path was full */
};

struct file_event {
	struct path_key key;
	__u64 ts; /* when the call was made */
	__u64 latency_ns;
	__s64 ret;
	__u32 uid;
	__u32 flags;
	char comm[TASK_COMM_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, struct file_event);
} pending SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct path_key);
	__type(value, struct path_stat);
} by_path SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct op_total);
} totals SEC(".maps");

static const struct file_event empty;
static const struct path_stat zero;

/* special reports whether an absolute path is in /proc, /sys or /dev: the
 * kernel's own files, which monitoring tools open by the thousand. */
static __always_inline int special(const char *p)
{
	if (p[0] != '/')
		return 0;
	if (p[1] == 'p' && p[2] == 'r' && p[3] == 'o' && p[4] == 'c' && p[5] == '/')
		return 1;
	if (p[1] == 's' && p[2] == 'y' && p[3] == 's' && p[4] == '/')
		return 1;
	return p[1] == 'd' && p[2] == 'e' && p[3] == 'v' && p[4] == '/';
}

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
	e->key.tgid = tgid;
	e->key.op = op;
	e->key.dirfd = dirfd;
	e->flags = flags;
	bpf_probe_read_user_str(&e->key.path, sizeof(e->key.path), path);
	/* Files created there (/dev/shm) stay: file_lifecycle wants them. */
	if (!all_paths && op == OP_OPEN && !(flags & O_CREAT) && special(e->key.path))
		bpf_map_delete_elem(&pending, &tid);
	return 0;
}

/* count adds e to its row of by_path and to its operation's total. */
static __always_inline void count(struct file_event *e)
{
	__u32 op = e->key.op;
	struct op_total *t = bpf_map_lookup_elem(&totals, &op);
	if (!t)
		return;
	__sync_fetch_and_add(&t->calls, 1);
	if (e->key.err)
		__sync_fetch_and_add(&t->failed, 1);
	struct path_stat *s = bpf_map_lookup_elem(&by_path, &e->key);
	if (!s) {
		bpf_map_update_elem(&by_path, &e->key, &zero, BPF_NOEXIST);
		s = bpf_map_lookup_elem(&by_path, &e->key);
		if (!s) {
			__sync_fetch_and_add(&t->unkeyed, 1);
			return;
		}
	}
	__sync_fetch_and_add(&s->count, 1);
	__sync_fetch_and_add(&s->total_ns, e->latency_ns);
	if (e->latency_ns > s->max_ns)
		s->max_ns = e->latency_ns; /* racy between CPUs, off by one call at worst */
}

SEC("tracepoint/raw_syscalls/sys_exit")
int on_exit(struct trace_event_raw_sys_exit *ctx)
{
	__u32 tid = current_tid();
	struct file_event *e = bpf_map_lookup_elem(&pending, &tid);
	if (!e)
		return 0;
	e->latency_ns = bpf_ktime_get_ns() - e->ts;
	e->ret = BPF_CORE_READ(ctx, ret);
	e->key.err = e->ret < 0 ? -e->ret : 0;
	e->uid = (__u32)bpf_get_current_uid_gid();
	bpf_get_current_comm(&e->comm, sizeof(e->comm));
	name_seen(e->key.tgid);
	count(e);
	emit(e, sizeof(*e));
	bpf_map_delete_elem(&pending, &tid);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
