// SPDX-License-Identifier: GPL-2.0
/* perf_dns_latency (like gethostlatency): uprobes on the C library's
 * getaddrinfo, gethostbyname and gethostbyname2, timed from entry to
 * return, with the name looked up. Programs that resolve names without
 * libc (Go's pure resolver, static binaries) are seen on the wire instead,
 * by dnswire.bpf.c. */
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
#include "ring.h"

struct dns_event {
	__u64 ts;
	__u64 latency_ns;
	__s64 ret;
	__u32 pid;
	__u32 func; /* 0 getaddrinfo, 1 gethostbyname, 2 gethostbyname2 */
	char comm[TASK_COMM_LEN];
	char host[128];
};

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
	e->func = func;
	bpf_probe_read_user_str(&e->host, sizeof(e->host), (const char *)PT_REGS_PARM1(ctx));
	return 0;
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
	e->pid = current_tgid();
	bpf_get_current_comm(&e->comm, sizeof(e->comm));
	emit(e, sizeof(*e));
	bpf_map_delete_elem(&pending, &tid);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
