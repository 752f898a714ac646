// SPDX-License-Identifier: GPL-2.0
/* perf_bio_latency: block request latency per device, as a log2 or linear
 * histogram, from the stable block tracepoints: issue (or, with queued,
 * insert into the OS queue) to completion. */
#include "types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "hist.h"

const volatile __u8 queued = 0;        /* start at insert when there was one */
const volatile __u64 unit_ns = 1000;   /* histogram unit: 1000 µs, 1000000 ms */
const volatile __u64 linear_width = 0; /* 0: log2 slots; else linear, in units */

struct rq_key {
	__u32 dev;
	__u32 _pad;
	__u64 sector;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct rq_key);
	__type(value, __u64);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct hist);
} hists SEC(".maps");

static const struct hist zero;

static __always_inline void mark(struct trace_event_raw_block_rq *ctx, __u64 flags)
{
	struct rq_key k = {.dev = BPF_CORE_READ(ctx, dev), .sector = BPF_CORE_READ(ctx, sector)};
	__u64 ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&start, &k, &ts, flags);
}

/* Attached only for queued. */
SEC("tracepoint/block/block_rq_insert")
int on_insert(struct trace_event_raw_block_rq *ctx)
{
	mark(ctx, BPF_ANY);
	return 0;
}

SEC("tracepoint/block/block_rq_issue")
int on_issue(struct trace_event_raw_block_rq *ctx)
{
	/* With queued, an insert's earlier time stands. */
	mark(ctx, queued ? BPF_NOEXIST : BPF_ANY);
	return 0;
}

SEC("tracepoint/block/block_rq_complete")
int on_complete(struct trace_event_raw_block_rq_completion *ctx)
{
	struct rq_key k = {.dev = BPF_CORE_READ(ctx, dev), .sector = BPF_CORE_READ(ctx, sector)};
	__u64 *ts = bpf_map_lookup_elem(&start, &k);
	if (!ts)
		return 0;
	__u64 v = (bpf_ktime_get_ns() - *ts) / unit_ns;
	bpf_map_delete_elem(&start, &k);
	__u32 dev = k.dev;
	struct hist *h = bpf_map_lookup_elem(&hists, &dev);
	if (!h) {
		bpf_map_update_elem(&hists, &dev, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hists, &dev);
		if (!h)
			return 0;
	}
	hist_add(h, v, linear_width);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
