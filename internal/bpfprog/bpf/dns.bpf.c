// SPDX-License-Identifier: GPL-2.0
/* perf_dns_latency (like gethostlatency): uprobes on the C library's
 * getaddrinfo, gethostbyname and gethostbyname2, timed from entry to
 * return, with the name looked up. Programs that resolve names without
 * libc (Go's pure resolver, static binaries) are seen on the wire instead,
 * by dnswire.bpf.c. Every lookup is also counted in by_host, by process,
 * function, result and name, so the counts cover the window whatever
 * records a full ring loses. */
#include "types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

/* The user-space register layouts bpf_tracing.h reads arguments from. */
#if defined(__TARGET_ARCH_x86)
struct pt_regs {
	unsigned long r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8;
	unsigned long rax, rcx, rdx, rsi, rdi, orig_rax, rip, cs, eflags, rsp, ss;
};
#elif defined(__TARGET_ARCH_arm64)
struct user_pt_regs {
	__u64 regs[31];
	__u64 sp;
	__u64 pc;
	__u64 pstate;
};
struct pt_regs;
#endif
#include <bpf/bpf_tracing.h>
#include "common.h"
#include "names.h"
#include "ring.h"

/* A row of by_host: who looked up what, how, and how it ended. */
struct lookup_key {
	__u32 pid;
	__u32 func;   /* 0 getaddrinfo, 1 gethostbyname, 2 gethostbyname2 */
	__u32 failed;
	__s32 code;   /* getaddrinfo's return: 0 or an EAI_* error */
	char host[128];
};

struct lookup_stat {
	__u64 count;
	__u64 total_ns;
	__u64 max_ns;
};

struct dns_event {
	struct lookup_key key;
	__u64 ts;
	__u64 latency_ns;
	__s64 ret;
	char comm[TASK_COMM_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct lookup_key);
	__type(value, struct lookup_stat);
} by_host SEC(".maps");

/* Lookups counted nowhere else: by_host was full. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} unkeyed SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, struct dns_event);
} pending SEC(".maps");

static const struct dns_event empty;

static __always_inline int enter(struct pt_regs *ctx, __u32 func)
{
	__u32 tid = current_tid();
	if (bpf_map_update_elem(&pending, &tid, &empty, BPF_ANY))
		return 0;
	struct dns_event *e = bpf_map_lookup_elem(&pending, &tid);
	if (!e)
		return 0;
	e->ts = bpf_ktime_get_ns();
	e->key.pid = current_tgid();
	e->key.func = func;
	bpf_probe_read_user_str(&e->key.host, sizeof(e->key.host), (const char *)PT_REGS_PARM1(ctx));
	return 0;
}

/* count adds a lookup to its row of by_host, or to unkeyed. */
static __always_inline void count(struct dns_event *e)
{
	struct lookup_stat *s = bpf_map_lookup_elem(&by_host, &e->key);
	if (!s) {
		struct lookup_stat z = {};
		bpf_map_update_elem(&by_host, &e->key, &z, BPF_NOEXIST);
		s = bpf_map_lookup_elem(&by_host, &e->key);
		if (!s) {
			__u32 zero = 0;
			__u64 *n = bpf_map_lookup_elem(&unkeyed, &zero);
			if (n)
				__sync_fetch_and_add(n, 1);
			return;
		}
	}
	__sync_fetch_and_add(&s->count, 1);
	__sync_fetch_and_add(&s->total_ns, e->latency_ns);
	if (e->latency_ns > s->max_ns)
		s->max_ns = e->latency_ns; /* racy between CPUs, off by one lookup at worst */
}

SEC("uprobe/getaddrinfo")
int on_getaddrinfo(struct pt_regs *ctx) { return enter(ctx, 0); }

SEC("uprobe/gethostbyname")
int on_gethostbyname(struct pt_regs *ctx) { return enter(ctx, 1); }

SEC("uprobe/gethostbyname2")
int on_gethostbyname2(struct pt_regs *ctx) { return enter(ctx, 2); }

SEC("uretprobe/lookup")
int on_return(struct pt_regs *ctx)
{
	__u32 tid = current_tid();
	struct dns_event *e = bpf_map_lookup_elem(&pending, &tid);
	if (!e)
		return 0;
	e->latency_ns = bpf_ktime_get_ns() - e->ts;
	e->ret = PT_REGS_RC(ctx);
	if (e->key.func == 0) { /* getaddrinfo returns 0 or an error */
		e->key.code = e->ret;
		e->key.failed = e->ret != 0;
	} else { /* gethostbyname returns a pointer, NULL on failure */
		e->key.failed = e->ret == 0;
	}
	bpf_get_current_comm(&e->comm, sizeof(e->comm));
	name_seen(e->key.pid);
	count(e);
	emit(e, sizeof(*e));
	bpf_map_delete_elem(&pending, &tid);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
