// SPDX-License-Identifier: GPL-2.0
/* perf_dns_latency's wire view: DNS queries sent over UDP to port 53 and
 * their answers, seen at the system calls, so resolvers that bypass the C
 * library (Go's, musl's, static binaries) are timed too. A socket becomes a
 * DNS socket when it is connected, or sends, to port 53; a query is the
 * start of what is written to it (write, sendto, sendmsg, sendmmsg), an
 * answer what is read back with the same DNS id (read, recvfrom, recvmsg).
 * Packets are copied raw; user space decodes names and types. Only user
 * memory is read: no kernel socket structures, so no CO-RE relocations.
 * Each process's queries are also counted in by_tgid (sent, answered,
 * errors, latency), whatever records a full ring loses. */
#include "types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "common.h"
#include "names.h"
#include "ring.h"

const volatile __u32 nr_connect = NO_SYSCALL, nr_close = NO_SYSCALL;
const volatile __u32 nr_read = NO_SYSCALL, nr_write = NO_SYSCALL;
const volatile __u32 nr_sendto = NO_SYSCALL, nr_sendmsg = NO_SYSCALL, nr_sendmmsg = NO_SYSCALL;
const volatile __u32 nr_recvfrom = NO_SYSCALL, nr_recvmsg = NO_SYSCALL;
const volatile __u32 target_tgid = 0;
const volatile __u32 self_tgid = 0; /* hostmcp itself, never traced */

#define AF_INET 2
#define AF_INET6 10
#define DNS_PORT 53
#define PKT_MAX 256 /* the header and the question: enough for any name */
#define HDR_LEN 12

struct sock_key {
	__u32 tgid;
	__u32 fd;
};

/* Where a DNS socket sends: the server. */
struct server {
	__u16 family;
	__u16 port;
	__u8 addr[16];
};

struct query_key {
	__u32 tgid;
	__u32 fd;
	__u16 id;
	__u16 pad;
};

struct query {
	__u64 ts;
	__u32 tid;
	__u32 len;
	struct server server;
	char comm[TASK_COMM_LEN];
	__u8 pkt[PKT_MAX];
};

/* A receive in flight on a DNS socket: where the answer will land. */
struct recv_call {
	__u64 buf;
	__u32 fd;
};

struct wire_event {
	__u64 ts;
	__u64 latency_ns;
	__u32 pid;
	__u32 tid;
	__u32 len;
	__u16 flags; /* the answer's DNS flags: rcode in the low 4 bits */
	__u16 answers;
	struct server server;
	char comm[TASK_COMM_LEN];
	__u8 pkt[PKT_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct sock_key);
	__type(value, struct server);
} dns_socks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct query_key);
	__type(value, struct query);
} queries SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct recv_call);
} recvs SEC(".maps");

/* Per process: queries sent and answered, answers with an error rcode,
 * and the latency of the answered ones. */
struct proc_stat {
	__u64 sent;
	__u64 answered;
	__u64 errors;
	__u64 total_ns;
	__u64 max_ns;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct proc_stat);
} by_tgid SEC(".maps");

/* Queries and answers counted nowhere else: by_tgid was full. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} unkeyed SEC(".maps");

/* proc_stat_of is the process's row of by_tgid, made if need be. */
static __always_inline struct proc_stat *proc_stat_of(__u32 tgid)
{
	struct proc_stat *s = bpf_map_lookup_elem(&by_tgid, &tgid);
	if (s)
		return s;
	struct proc_stat z = {};
	name_seen(tgid);
	bpf_map_update_elem(&by_tgid, &tgid, &z, BPF_NOEXIST);
	s = bpf_map_lookup_elem(&by_tgid, &tgid);
	if (!s) {
		__u32 zero = 0;
		__u64 *n = bpf_map_lookup_elem(&unkeyed, &zero);
		if (n)
			__sync_fetch_and_add(n, 1);
	}
	return s;
}

/* Scratch for a query and an event: too big for the 512-byte stack. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct query);
} query_scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wire_event);
} event_scratch SEC(".maps");

/* struct user_msghdr and struct iovec as user space lays them out (64-bit). */
struct user_msghdr64 {
	__u64 name;
	__u32 namelen;
	__u32 pad;
	__u64 iov;
	__u64 iovlen;
	__u64 control;
	__u64 controllen;
	__u32 flags;
	__u32 pad2;
};

struct iovec64 {
	__u64 base;
	__u64 len;
};

/* mmsghdr: a msghdr and the length sent. */
#define MMSGHDR_SIZE (sizeof(struct user_msghdr64) + 8)

/* read_server reads a sockaddr from user memory; it reports whether it is
 * an IPv4 or IPv6 address on port 53. The family and port come first, then
 * only as many address bytes as the family has, so a short sockaddr_in at
 * the end of a page is still read. */
static __always_inline int read_server(__u64 uaddr, struct server *s)
{
	if (!uaddr)
		return 0;
	__u16 head[2] = {};
	if (bpf_probe_read_user(head, sizeof(head), (const void *)uaddr))
		return 0;
	__u16 port = (head[1] >> 8) | (head[1] << 8);
	if ((head[0] != AF_INET && head[0] != AF_INET6) || port != DNS_PORT)
		return 0;
	s->family = head[0];
	s->port = port;
	if (head[0] == AF_INET)
		return !bpf_probe_read_user(s->addr, 4, (const void *)(uaddr + 4));
	return !bpf_probe_read_user(s->addr, 16, (const void *)(uaddr + 8));
}

static __always_inline int traced(__u32 tgid)
{
	return tgid != self_tgid && (!target_tgid || tgid == target_tgid);
}

/* send_query records the DNS query at buf (len bytes) sent on a DNS socket. */
static __always_inline void send_query(__u32 tgid, __u32 fd, const struct server *srv, __u64 buf, __u64 len)
{
	if (!buf || len < HDR_LEN)
		return;
	__u32 zero = 0;
	struct query *q = bpf_map_lookup_elem(&query_scratch, &zero);
	if (!q)
		return;
	__u32 n = len > PKT_MAX ? PKT_MAX : len;
	if (n < HDR_LEN || n > PKT_MAX)
		return;
	if (bpf_probe_read_user(q->pkt, n, (const void *)buf))
		return;
	q->ts = bpf_ktime_get_ns();
	q->tid = current_tid();
	q->len = n;
	q->server = *srv;
	bpf_get_current_comm(&q->comm, sizeof(q->comm));
	struct query_key k = {.tgid = tgid, .fd = fd};
	k.id = ((__u16)q->pkt[0] << 8) | q->pkt[1];
	bpf_map_update_elem(&queries, &k, q, BPF_ANY);
	struct proc_stat *s = proc_stat_of(tgid);
	if (s)
		__sync_fetch_and_add(&s->sent, 1);
}

/* send_msg records the query in the first buffer of a msghdr. */
static __always_inline void send_msg(__u32 tgid, __u32 fd, struct server *srv, __u64 umsg)
{
	struct user_msghdr64 m = {};
	if (bpf_probe_read_user(&m, sizeof(m), (const void *)umsg) || !m.iovlen)
		return;
	struct iovec64 iov = {};
	if (bpf_probe_read_user(&iov, sizeof(iov), (const void *)m.iov))
		return;
	send_query(tgid, fd, srv, iov.base, iov.len);
}

SEC("tracepoint/raw_syscalls/sys_enter")
int on_enter(struct trace_event_raw_sys_enter *ctx)
{
	long id = BPF_CORE_READ(ctx, id);
	if (id != nr_connect && id != nr_close && id != nr_read && id != nr_write && id != nr_sendto &&
	    id != nr_sendmsg && id != nr_sendmmsg && id != nr_recvfrom && id != nr_recvmsg)
		return 0;
	__u32 tgid = current_tgid();
	if (!traced(tgid))
		return 0;
	struct sock_key sk = {.tgid = tgid, .fd = BPF_CORE_READ(ctx, args[0])};
	__u64 a1 = BPF_CORE_READ(ctx, args[1]);
	__u64 a2 = BPF_CORE_READ(ctx, args[2]);

	if (id == nr_connect) {
		struct server s = {};
		if (read_server(a1, &s))
			bpf_map_update_elem(&dns_socks, &sk, &s, BPF_ANY);
		else
			bpf_map_delete_elem(&dns_socks, &sk);
		return 0;
	}
	if (id == nr_close) {
		bpf_map_delete_elem(&dns_socks, &sk);
		return 0;
	}
	struct server *srv = bpf_map_lookup_elem(&dns_socks, &sk);
	if (id == nr_sendto || id == nr_sendmsg) {
		/* An unconnected socket names its server on every send. */
		struct server s = {};
		__u64 addr = BPF_CORE_READ(ctx, args[4]);
		if (id == nr_sendmsg) {
			struct user_msghdr64 m = {};
			addr = 0;
			if (!bpf_probe_read_user(&m, sizeof(m), (const void *)a1))
				addr = m.name;
		}
		if (read_server(addr, &s)) {
			bpf_map_update_elem(&dns_socks, &sk, &s, BPF_ANY);
			srv = bpf_map_lookup_elem(&dns_socks, &sk);
		}
	}
	if (!srv)
		return 0;
	if (id == nr_write || id == nr_sendto) {
		send_query(tgid, sk.fd, srv, a1, a2);
	} else if (id == nr_sendmsg) {
		send_msg(tgid, sk.fd, srv, a1);
	} else if (id == nr_sendmmsg) {
		/* The C library sends the A and AAAA queries together. */
		send_msg(tgid, sk.fd, srv, a1);
		if (a2 > 1)
			send_msg(tgid, sk.fd, srv, a1 + MMSGHDR_SIZE);
	} else {
		struct recv_call r = {.fd = sk.fd, .buf = a1};
		if (id == nr_recvmsg) {
			struct user_msghdr64 m = {};
			struct iovec64 iov = {};
			if (bpf_probe_read_user(&m, sizeof(m), (const void *)a1) || !m.iovlen ||
			    bpf_probe_read_user(&iov, sizeof(iov), (const void *)m.iov))
				return 0;
			r.buf = iov.base;
		}
		__u32 tid = current_tid();
		bpf_map_update_elem(&recvs, &tid, &r, BPF_ANY);
	}
	return 0;
}

SEC("tracepoint/raw_syscalls/sys_exit")
int on_exit(struct trace_event_raw_sys_exit *ctx)
{
	__u32 tid = current_tid();
	struct recv_call *r = bpf_map_lookup_elem(&recvs, &tid);
	if (!r)
		return 0;
	struct recv_call call = *r;
	bpf_map_delete_elem(&recvs, &tid);
	long ret = BPF_CORE_READ(ctx, ret);
	if (ret < HDR_LEN)
		return 0;
	__u8 hdr[HDR_LEN] = {};
	if (bpf_probe_read_user(hdr, sizeof(hdr), (const void *)call.buf))
		return 0;
	struct query_key k = {.tgid = current_tgid(), .fd = call.fd};
	k.id = ((__u16)hdr[0] << 8) | hdr[1];
	struct query *q = bpf_map_lookup_elem(&queries, &k);
	if (!q || !(hdr[2] & 0x80)) /* no such query, or not an answer */
		return 0;
	__u32 zero = 0;
	struct wire_event *e = bpf_map_lookup_elem(&event_scratch, &zero);
	if (!e)
		return 0;
	e->ts = q->ts;
	e->latency_ns = bpf_ktime_get_ns() - q->ts;
	e->pid = k.tgid;
	e->tid = q->tid;
	e->len = q->len;
	e->flags = ((__u16)hdr[2] << 8) | hdr[3];
	e->answers = ((__u16)hdr[6] << 8) | hdr[7];
	e->server = q->server;
	__builtin_memcpy(e->comm, q->comm, TASK_COMM_LEN);
	__builtin_memcpy(e->pkt, q->pkt, PKT_MAX);
	struct proc_stat *s = proc_stat_of(k.tgid);
	if (s) {
		__sync_fetch_and_add(&s->answered, 1);
		if (e->flags & 0xf)
			__sync_fetch_and_add(&s->errors, 1);
		__sync_fetch_and_add(&s->total_ns, e->latency_ns);
		if (e->latency_ns > s->max_ns)
			s->max_ns = e->latency_ns; /* racy between CPUs, off by one answer at worst */
	}
	emit(e, sizeof(*e));
	bpf_map_delete_elem(&queries, &k);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
