/* Each traced process's name as it is now, not as it was when first seen:
 * a child forked by bash makes its first system calls as "bash", then
 * execs dd. A program that keeps a table per process includes this,
 * calls name_seen for each process it counts, and reads the name from
 * names at the end; on_exec renames a process the table already holds
 * when it execs (sched_process_exec fires once the new name is set). The
 * name is the process's, its thread group leader's, not a thread's. */
#ifndef HOSTMCP_NAMES_H
#define HOSTMCP_NAMES_H

struct name {
	char comm[TASK_COMM_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct name);
} names SEC(".maps");

static __always_inline void leader_name(struct task_struct *task, struct name *n)
{
	struct task_struct *leader = BPF_CORE_READ(task, group_leader);
	bpf_core_read_str(n->comm, sizeof(n->comm), &leader->comm);
}

/* name_seen_task records the name of task's process, tgid, unless it is
 * known. */
static __always_inline void name_seen_task(__u32 tgid, struct task_struct *task)
{
	if (bpf_map_lookup_elem(&names, &tgid))
		return;
	struct name n = {};
	leader_name(task, &n);
	bpf_map_update_elem(&names, &tgid, &n, BPF_NOEXIST);
}

/* name_seen records the current process's name unless it is known. */
static __always_inline void name_seen(__u32 tgid)
{
	name_seen_task(tgid, (struct task_struct *)bpf_get_current_task());
}

SEC("tracepoint/sched/sched_process_exec")
int on_exec(void *ctx)
{
	__u32 tgid = current_tgid();
	struct name n = {};
	leader_name((struct task_struct *)bpf_get_current_task(), &n);
	bpf_map_update_elem(&names, &tgid, &n, BPF_EXIST);
	return 0;
}

#endif
