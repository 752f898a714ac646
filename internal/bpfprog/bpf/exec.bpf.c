// SPDX-License-Identifier: GPL-2.0
/* perf_exec_trace: every exec, failed ones included, with its arguments,
 * from raw_syscalls: execve/execveat's arguments are read at sys_enter and
 * the record, with the result, goes to a ring buffer at sys_exit. Every
 * exec is also counted in by_program, by parent, user, errno and file, so
 * the counts cover the window whatever records a full ring loses. */
#include "types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "common.h"
#include "ring.h"

#define MAX_ARGS 20
#define ARG_LEN 128

const volatile __u32 nr_execve = NO_SYSCALL;
const volatile __u32 nr_execveat = NO_SYSCALL;
const volatile __u32 max_args = MAX_ARGS;

/* A row of by_program: who ran what, and how it ended (0: it succeeded). */
struct exec_key {
	__u32 ppid;
	__u32 uid;
	__u32 err;
	__u32 _pad;
	char filename[256];
};

struct exec_count {
	__u64 count;
	char comm[TASK_COMM_LEN];   /* the process's after the exec (the old one if it failed) */
	char parent[TASK_COMM_LEN]; /* the parent's */
};

struct exec_event {
	struct exec_key key;
	__u32 pid;
	__s32 ret;
	__u64 ts;
	__u32 argc;          /* arguments captured */
	__u32 args_truncated; /* there were more than max_args */
	char comm[TASK_COMM_LEN];
	char args[MAX_ARGS][ARG_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct exec_event);
} pending SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct exec_key);
	__type(value, struct exec_count);
} by_program SEC(".maps");

/* Execs counted in the total only: by_program was full. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} unkeyed SEC(".maps");

static const struct exec_event empty;

SEC("tracepoint/raw_syscalls/sys_enter")
int on_enter(struct trace_event_raw_sys_enter *ctx)
{
	long id = BPF_CORE_READ(ctx, id);
	const char *filename;
	const char *const *argv;
	if (id == nr_execve) {
		filename = (const char *)BPF_CORE_READ(ctx, args[0]);
		argv = (const char *const *)BPF_CORE_READ(ctx, args[1]);
	} else if (id == nr_execveat) {
		filename = (const char *)BPF_CORE_READ(ctx, args[1]);
		argv = (const char *const *)BPF_CORE_READ(ctx, args[2]);
	} else {
		return 0;
	}
	__u32 tid = current_tid();
	if (bpf_map_update_elem(&pending, &tid, &empty, BPF_ANY))
		return 0;
	struct exec_event *e = bpf_map_lookup_elem(&pending, &tid);
	if (!e)
		return 0;
	e->ts = bpf_ktime_get_ns();
	bpf_probe_read_user_str(&e->key.filename, sizeof(e->key.filename), filename);
	for (__u32 i = 0; i < MAX_ARGS; i++) {
		const char *arg = 0;
		if (i >= max_args) {
			if (!bpf_probe_read_user(&arg, sizeof(arg), &argv[i]) && arg)
				e->args_truncated = 1;
			break;
		}
		if (bpf_probe_read_user(&arg, sizeof(arg), &argv[i]) || !arg)
			break;
		bpf_probe_read_user_str(&e->args[i], ARG_LEN, arg);
		e->argc = i + 1;
	}
	if (e->argc == MAX_ARGS) {
		const char *arg = 0;
		if (!bpf_probe_read_user(&arg, sizeof(arg), &argv[MAX_ARGS]) && arg)
			e->args_truncated = 1;
	}
	return 0;
}

/* count adds an exec to its row of by_program, or to unkeyed. */
static __always_inline void count(struct exec_event *e, struct task_struct *task)
{
	struct exec_count *c = bpf_map_lookup_elem(&by_program, &e->key);
	if (!c) {
		struct exec_count z = {};
		bpf_map_update_elem(&by_program, &e->key, &z, BPF_NOEXIST);
		c = bpf_map_lookup_elem(&by_program, &e->key);
		if (!c) {
			__u32 zero = 0;
			__u64 *n = bpf_map_lookup_elem(&unkeyed, &zero);
			if (n)
				__sync_fetch_and_add(n, 1);
			return;
		}
		struct task_struct *parent = BPF_CORE_READ(task, real_parent, group_leader);
		bpf_core_read_str(c->parent, sizeof(c->parent), &parent->comm);
	}
	__builtin_memcpy(c->comm, e->comm, sizeof(c->comm));
	__sync_fetch_and_add(&c->count, 1);
}

SEC("tracepoint/raw_syscalls/sys_exit")
int on_exit(struct trace_event_raw_sys_exit *ctx)
{
	long id = BPF_CORE_READ(ctx, id);
	if (id != nr_execve && id != nr_execveat)
		return 0;
	__u32 tid = current_tid();
	struct exec_event *e = bpf_map_lookup_elem(&pending, &tid);
	if (!e)
		return 0;
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	e->pid = current_tgid();
	e->key.ppid = BPF_CORE_READ(task, real_parent, tgid);
	e->key.uid = (__u32)bpf_get_current_uid_gid();
	e->ret = BPF_CORE_READ(ctx, ret);
	e->key.err = e->ret < 0 ? -e->ret : 0;
	bpf_get_current_comm(&e->comm, sizeof(e->comm)); /* the new program's, on success */
	count(e, task);
	emit(e, sizeof(*e));
	bpf_map_delete_elem(&pending, &tid);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
