// SPDX-License-Identifier: GPL-2.0
/* perf_runq_latency: time from becoming runnable to running (run queue
 * latency), log2 histograms of microseconds, overall or per process.
 *
 * A task becomes runnable when it is woken (sched_wakeup, sched_wakeup_new)
 * or when it is switched out while still runnable: preempted, which is how
 * CPU-bound tasks wait. The sched_switch tracepoint's prev_state field
 * cannot tell that case apart on current kernels (a preempted task reports
 * TASK_REPORT_MAX, not TASK_RUNNING), so these are raw tracepoints, whose
 * arguments are the task_structs themselves: prev's own __state says
 * whether it is still runnable, and next's tgid keys the per-process
 * histogram. Raw tracepoints need neither kprobes nor fentry. Processes
 * are named by what they run at the end (names.h). */
#include "types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "common.h"
#include "hist.h"
#include "names.h"

const volatile __u32 targ_tgid = 0;  /* only this process's threads; 0: all */
const volatile __u8 per_process = 0; /* a histogram per process, else one */

/* When each runnable thread was queued, by thread id. A plain hash, not an
 * LRU one (which costs a third more to set up): a trace lasts seconds, and
 * the entries of threads that exit while queued cannot fill it. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u64);
} queued SEC(".maps");

struct runq_hist {
	struct hist h;
	__u64 total_us; /* sum of the waits */
};

/* By process id with per_process, else one entry under key 0. Waits of
 * processes beyond the first 4096 seen are counted in unkeyed only. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct runq_hist);
} hists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} unkeyed SEC(".maps");

static const struct runq_hist zero;

static __always_inline long task_state(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return BPF_CORE_READ((struct task_struct___pre514 *)t, state);
}

static __always_inline void enqueue(struct task_struct *t)
{
	__u32 tid = BPF_CORE_READ(t, pid);
	if (!tid) /* the idle task */
		return;
	if (targ_tgid && (__u32)BPF_CORE_READ(t, tgid) != targ_tgid)
		return;
	__u64 ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&queued, &tid, &ts, BPF_ANY);
}

/* Raw tracepoint arguments: sched_wakeup(p), sched_switch(preempt, prev,
 * next, ...). */
SEC("raw_tp/sched_wakeup")
int on_wakeup(__u64 *ctx)
{
	enqueue((struct task_struct *)ctx[0]);
	return 0;
}

SEC("raw_tp/sched_wakeup_new")
int on_wakeup_new(__u64 *ctx)
{
	enqueue((struct task_struct *)ctx[0]);
	return 0;
}

SEC("raw_tp/sched_switch")
int on_switch(__u64 *ctx)
{
	struct task_struct *prev = (struct task_struct *)ctx[1];
	struct task_struct *next = (struct task_struct *)ctx[2];
	if (task_state(prev) == TASK_RUNNING)
		enqueue(prev);

	__u32 tid = BPF_CORE_READ(next, pid);
	__u64 *ts = bpf_map_lookup_elem(&queued, &tid);
	if (!ts)
		return 0;
	__u64 us = (bpf_ktime_get_ns() - *ts) / 1000;
	bpf_map_delete_elem(&queued, &tid);

	__u32 key = per_process ? (__u32)BPF_CORE_READ(next, tgid) : 0;
	struct runq_hist *h = bpf_map_lookup_elem(&hists, &key);
	if (!h) {
		bpf_map_update_elem(&hists, &key, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hists, &key);
		if (!h) {
			__u32 z = 0;
			__u64 *n = bpf_map_lookup_elem(&unkeyed, &z);
			if (n)
				__sync_fetch_and_add(n, 1);
			return 0;
		}
		if (per_process)
			name_seen_task(key, next);
	}
	hist_add(&h->h, us, 0);
	__sync_fetch_and_add(&h->total_us, us);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
