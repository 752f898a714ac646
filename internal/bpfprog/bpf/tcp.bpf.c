// SPDX-License-Identifier: GPL-2.0
/* perf_tcp_trace from the stable sock:inet_sock_set_state tracepoint.
 * lifecycle (like tcplife): a record per connection when it closes, with
 * its duration and bytes each way; connections (like tcpconnect): a record
 * per active open when it leaves SYN_SENT (established, or failed: the
 * local port is only chosen after CLOSE -> SYN_SENT), credited to the
 * process that was running at SYN_SENT, the connecting one. Either way,
 * every connection that passes the filters is also counted in by_peer, by
 * process and remote end, so the counts cover the window whatever records
 * a full ring loses. */
#include "types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "common.h"
#include "names.h"
#include "ring.h"

#define IPPROTO_TCP 6
#define AF_INET 2
enum { TCP_ESTABLISHED = 1, TCP_SYN_SENT, TCP_SYN_RECV, TCP_FIN_WAIT1, TCP_FIN_WAIT2,
       TCP_TIME_WAIT, TCP_CLOSE, TCP_CLOSE_WAIT, TCP_LAST_ACK, TCP_LISTEN };

const volatile __u8 lifecycle = 1;
const volatile __u32 target_tgid = 0;  /* 0: every process */
const volatile __u16 local_port = 0;   /* 0: any */
const volatile __u16 remote_port = 0;  /* 0: any */

struct tcp_event {
	__u64 ts;
	__u64 duration_ns; /* lifecycle */
	__u64 rx_bytes;    /* lifecycle */
	__u64 tx_bytes;    /* lifecycle */
	__u32 pid;
	__u32 established; /* connections: the handshake completed */
	__u16 family;
	__u16 sport;
	__u16 dport;
	__u16 _pad;
	__u8 saddr[16];
	__u8 daddr[16];
	char comm[TASK_COMM_LEN];
};

struct who {
	__u32 pid;
	char comm[TASK_COMM_LEN];
};

/* A connection's birth, and whether this end made it (connect) or
 * accepted it. */
struct birth {
	__u64 ts;
	__u64 active;
};

/* A row of by_peer: a process and the other end, the local port standing
 * for an accepted connection's (whose remote port is ephemeral), the
 * remote port for a connection made. */
struct peer_key {
	__u32 tgid;
	__u16 family;
	__u16 lport; /* accepted connections: the local port; else 0 */
	__u16 rport; /* connections made: the remote port; else 0 */
	__u16 _pad[3];
	__u8 raddr[16];
};

struct peer_stat {
	__u64 count;
	__u64 failed; /* connections: the handshake did not complete */
	__u64 rx_bytes;
	__u64 tx_bytes;
	__u64 total_ns;
	__u64 max_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct peer_key);
	__type(value, struct peer_stat);
} by_peer SEC(".maps");

/* Connections counted nowhere else: by_peer was full. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} unkeyed SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u64);
	__type(value, struct birth);
} births SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u64);
	__type(value, struct who);
} whos SEC(".maps");

static __always_inline void fill(struct tcp_event *e, struct trace_event_raw_inet_sock_set_state *ctx)
{
	e->ts = bpf_ktime_get_ns();
	e->family = BPF_CORE_READ(ctx, family);
	e->sport = BPF_CORE_READ(ctx, sport);
	e->dport = BPF_CORE_READ(ctx, dport);
	if (e->family == AF_INET) {
		bpf_core_read(e->saddr, 4, &ctx->saddr);
		bpf_core_read(e->daddr, 4, &ctx->daddr);
	} else {
		bpf_core_read(e->saddr, 16, &ctx->saddr_v6);
		bpf_core_read(e->daddr, 16, &ctx->daddr_v6);
	}
}

static __always_inline int wanted(struct tcp_event *e)
{
	return (!target_tgid || e->pid == target_tgid) && (!local_port || e->sport == local_port) &&
	       (!remote_port || e->dport == remote_port);
}

/* count adds a connection to its row of by_peer, or to unkeyed. */
static __always_inline void count(struct tcp_event *e, int active)
{
	struct peer_key k = {.tgid = e->pid, .family = e->family};
	if (active)
		k.rport = e->dport;
	else
		k.lport = e->sport;
	__builtin_memcpy(k.raddr, e->daddr, sizeof(k.raddr));
	struct peer_stat *s = bpf_map_lookup_elem(&by_peer, &k);
	if (!s) {
		struct peer_stat z = {};
		bpf_map_update_elem(&by_peer, &k, &z, BPF_NOEXIST);
		s = bpf_map_lookup_elem(&by_peer, &k);
		if (!s) {
			__u32 zero = 0;
			__u64 *n = bpf_map_lookup_elem(&unkeyed, &zero);
			if (n)
				__sync_fetch_and_add(n, 1);
			return;
		}
	}
	__sync_fetch_and_add(&s->count, 1);
	if (!lifecycle && !e->established)
		__sync_fetch_and_add(&s->failed, 1);
	__sync_fetch_and_add(&s->rx_bytes, e->rx_bytes);
	__sync_fetch_and_add(&s->tx_bytes, e->tx_bytes);
	__sync_fetch_and_add(&s->total_ns, e->duration_ns);
	if (e->duration_ns > s->max_ns)
		s->max_ns = e->duration_ns; /* racy between CPUs, off by one connection at worst */
}

SEC("tracepoint/sock/inet_sock_set_state")
int on_state(struct trace_event_raw_inet_sock_set_state *ctx)
{
	if (BPF_CORE_READ(ctx, protocol) != IPPROTO_TCP)
		return 0;
	int oldstate = BPF_CORE_READ(ctx, oldstate);
	int newstate = BPF_CORE_READ(ctx, newstate);
	__u64 sk = (__u64)BPF_CORE_READ(ctx, skaddr);

	if (!lifecycle) {
		if (newstate == TCP_SYN_SENT) {
			struct who w = {.pid = current_tgid()};
			bpf_get_current_comm(&w.comm, sizeof(w.comm));
			name_seen(w.pid);
			bpf_map_update_elem(&whos, &sk, &w, BPF_ANY);
			return 0;
		}
		if (oldstate != TCP_SYN_SENT)
			return 0;
		struct who *w = bpf_map_lookup_elem(&whos, &sk);
		if (!w)
			return 0; /* the connect began before the trace */
		struct tcp_event e = {.pid = w->pid, .established = newstate == TCP_ESTABLISHED};
		__builtin_memcpy(&e.comm, w->comm, sizeof(e.comm));
		fill(&e, ctx);
		bpf_map_delete_elem(&whos, &sk);
		if (!wanted(&e))
			return 0;
		count(&e, 1);
		emit(&e, sizeof(e));
		return 0;
	}

	if (newstate < TCP_FIN_WAIT1) { /* the connection is being set up: its birth */
		struct birth b = {.ts = bpf_ktime_get_ns(), .active = newstate == TCP_SYN_SENT};
		bpf_map_update_elem(&births, &sk, &b, BPF_NOEXIST);
	}
	/* These transitions run in the owning process: connect, close (or
	 * shutdown) first, and close after the peer closed. The others may run
	 * in softirq context, where the current task is whoever was running:
	 * an accepted connection's are all of that kind until its owner closes
	 * it. The connecting process, once known, is kept. */
	if (newstate == TCP_SYN_SENT || newstate == TCP_FIN_WAIT1 || newstate == TCP_LAST_ACK) {
		struct who w = {.pid = current_tgid()};
		bpf_get_current_comm(&w.comm, sizeof(w.comm));
		name_seen(w.pid);
		bpf_map_update_elem(&whos, &sk, &w, newstate == TCP_SYN_SENT ? BPF_ANY : BPF_NOEXIST);
	}
	if (newstate != TCP_CLOSE)
		return 0;
	struct birth *birth = bpf_map_lookup_elem(&births, &sk);
	if (!birth) {
		bpf_map_delete_elem(&whos, &sk);
		return 0; /* born before the trace started */
	}
	int active = birth->active;
	struct tcp_event e = {};
	fill(&e, ctx);
	e.duration_ns = e.ts - birth->ts;
	struct tcp_sock *tp = (struct tcp_sock *)sk;
	e.rx_bytes = BPF_CORE_READ(tp, bytes_received);
	e.tx_bytes = BPF_CORE_READ(tp, bytes_acked);
	struct who *w = bpf_map_lookup_elem(&whos, &sk);
	if (w) {
		e.pid = w->pid;
		__builtin_memcpy(&e.comm, w->comm, sizeof(e.comm));
	} else {
		e.pid = current_tgid();
		bpf_get_current_comm(&e.comm, sizeof(e.comm));
		name_seen(e.pid);
	}
	bpf_map_delete_elem(&births, &sk);
	bpf_map_delete_elem(&whos, &sk);
	if (!wanted(&e))
		return 0;
	count(&e, active);
	emit(&e, sizeof(e));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
