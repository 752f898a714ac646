// SPDX-License-Identifier: GPL-2.0
/* perf_syscall_count: system calls by number and by process, counted in the
 * kernel at raw_syscalls:sys_exit (so the result is known), with their
 * latency from sys_enter when asked. Processes are named by what they run
 * at the end (names.h), not by what they ran when first counted. */
#include "types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "common.h"
#include "names.h"

const volatile __u32 target_tgid = 0;                 /* 0: every process */
const volatile char target_comm[TASK_COMM_LEN] = {}; /* empty: every command */
const volatile __u8 errors_only = 0;                  /* count failed calls only */
const volatile __u8 latency = 0;                      /* time each call */

struct nr_stat {
	__u64 count;
	__u64 errors;
	__u64 total_ns;
};

struct proc_stat {
	__u64 count;
	__u64 errors;
	__u64 total_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u64);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct nr_stat);
} by_nr SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, struct proc_stat);
} by_tgid SEC(".maps");

/* Calls counted by number only: by_tgid was full. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} unkeyed SEC(".maps");

static __always_inline int wanted(void)
{
	if (target_tgid && current_tgid() != target_tgid)
		return 0;
	if (target_comm[0] && !comm_is(target_comm))
		return 0;
	return 1;
}

SEC("tracepoint/raw_syscalls/sys_enter")
int on_enter(struct trace_event_raw_sys_enter *ctx)
{
	if (!latency || !wanted())
		return 0;
	__u32 tid = current_tid();
	__u64 ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&start, &tid, &ts, BPF_ANY);
	return 0;
}

SEC("tracepoint/raw_syscalls/sys_exit")
int on_exit(struct trace_event_raw_sys_exit *ctx)
{
	if (!wanted())
		return 0;
	long id = BPF_CORE_READ(ctx, id);
	long ret = BPF_CORE_READ(ctx, ret);
	if (id < 0)
		return 0;
	__u64 lat = 0;
	if (latency) {
		__u32 tid = current_tid();
		__u64 *ts = bpf_map_lookup_elem(&start, &tid);
		if (ts) {
			lat = bpf_ktime_get_ns() - *ts;
			bpf_map_delete_elem(&start, &tid);
		}
	}
	__u64 failed = ret < 0 && ret >= -4095;
	if (errors_only && !failed)
		return 0;

	__u32 nr = id;
	struct nr_stat *ns = bpf_map_lookup_elem(&by_nr, &nr);
	if (!ns) {
		struct nr_stat z = {};
		bpf_map_update_elem(&by_nr, &nr, &z, BPF_NOEXIST);
		ns = bpf_map_lookup_elem(&by_nr, &nr);
		if (!ns)
			return 0;
	}
	__sync_fetch_and_add(&ns->count, 1);
	__sync_fetch_and_add(&ns->errors, failed);
	__sync_fetch_and_add(&ns->total_ns, lat);

	__u32 tgid = current_tgid();
	struct proc_stat *ps = bpf_map_lookup_elem(&by_tgid, &tgid);
	if (!ps) {
		struct proc_stat z = {};
		name_seen(tgid);
		bpf_map_update_elem(&by_tgid, &tgid, &z, BPF_NOEXIST);
		ps = bpf_map_lookup_elem(&by_tgid, &tgid);
		if (!ps) {
			__u32 zero = 0;
			__u64 *n = bpf_map_lookup_elem(&unkeyed, &zero);
			if (n)
				__sync_fetch_and_add(n, 1);
			return 0;
		}
	}
	__sync_fetch_and_add(&ps->count, 1);
	__sync_fetch_and_add(&ps->errors, failed);
	__sync_fetch_and_add(&ps->total_ns, lat);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
