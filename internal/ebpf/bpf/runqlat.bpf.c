// SPDX-License-Identifier: GPL-2.0
/* perf_runq_latency: time from wakeup to running (run queue latency), a
 * log2 histogram of microseconds, from sched_wakeup(_new) and sched_switch.
 * A task preempted while runnable is queued again at the switch. */
#include "types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "hist.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, __u64);
} queued SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct hist);
} hist SEC(".maps");

static __always_inline void enqueue(__u32 pid)
{
	if (!pid)
		return;
	__u64 ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&queued, &pid, &ts, BPF_ANY);
}

SEC("tracepoint/sched/sched_wakeup")
int on_wakeup(struct trace_event_raw_sched_wakeup_template *ctx)
{
	enqueue(BPF_CORE_READ(ctx, pid));
	return 0;
}

SEC("tracepoint/sched/sched_wakeup_new")
int on_wakeup_new(struct trace_event_raw_sched_wakeup_template *ctx)
{
	enqueue(BPF_CORE_READ(ctx, pid));
	return 0;
}

SEC("tracepoint/sched/sched_switch")
int on_switch(struct trace_event_raw_sched_switch *ctx)
{
	if (BPF_CORE_READ(ctx, prev_state) == 0) /* TASK_RUNNING: preempted, queued again */
		enqueue(BPF_CORE_READ(ctx, prev_pid));
	__u32 next = BPF_CORE_READ(ctx, next_pid);
	__u64 *ts = bpf_map_lookup_elem(&queued, &next);
	if (!ts)
		return 0;
	__u64 us = (bpf_ktime_get_ns() - *ts) / 1000;
	bpf_map_delete_elem(&queued, &next);
	__u32 zero = 0;
	struct hist *h = bpf_map_lookup_elem(&hist, &zero);
	if (h)
		hist_add(h, us, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
