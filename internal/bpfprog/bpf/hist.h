/* Histograms shared by the latency programs: in log2 form slot n counts
 * values in [2^n, 2^(n+1)), slot 0 also counts 0. */
#ifndef HOSTMCP_HIST_H
#define HOSTMCP_HIST_H

#define MAX_SLOTS 32

static __always_inline __u32 log2l(__u64 v)
{
	__u32 r = 0;
	#pragma unroll
	for (int i = 5; i >= 0; i--) {
		__u32 shift = 1u << i;
		if (v >= (1ull << shift)) {
			v >>= shift;
			r += shift;
		}
	}
	return r;
}

struct hist {
	__u64 slots[MAX_SLOTS];
};

/* hist_add counts v in its log2 slot, or with width > 0 in the linear
 * slot v/width (the last slot also holding everything above). */
static __always_inline void hist_add(struct hist *h, __u64 v, __u64 width)
{
	__u64 s = width ? v / width : log2l(v);
	if (s >= MAX_SLOTS)
		s = MAX_SLOTS - 1;
	__sync_fetch_and_add(&h->slots[s], 1);
}

#endif
