// SPDX-License-Identifier: GPL-2.0
/* perf_offcpu_profile: what each thread waited on while off the CPU, how
 * often, how long, and who woke it; aggregated in the kernel over the whole
 * window, so nothing is sampled or dropped on the way to user space.
 *
 * An episode runs from a thread's switch out (sched_switch, prev) to its
 * switch back in (sched_switch, next). At the switch in, the thread has not
 * run since it blocked, so bpf_get_task_stack(next) is the stack it waited
 * on: the one /proc/PID/stack shows, scheduler frames left out by the
 * kernel, its first frame what /proc/PID/wchan names. Taking it there rather
 * than at the switch out also names the waits that began before the window.
 *
 * The waker is whoever ran try_to_wake_up (sched_waking fires in the
 * waker's context; sched_wakeup may fire on the wakee's CPU, under whatever
 * ran there). A wakeup from an interrupt, a softirq or a timer callback runs
 * under the task it interrupted, so those contexts are tracked per CPU from
 * their entry/exit tracepoints and named instead of that task.
 *
 * tp_btf programs: bpf_get_task_stack takes a typed task pointer, which
 * only BTF-enabled tracepoints hand over; they need BTF, not fentry. */
#include "types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#define STACK_DEPTH 32
#define TASK_DEAD 0x80

/* Waker contexts (wait_key.waker_ctx); SOFTIRQ + vec for a softirq. */
#define WAKER_NONE 0	/* no wakeup seen: preempted, or still waiting */
#define WAKER_TASK 1
#define WAKER_HARDIRQ 2
#define WAKER_TIMER 3	/* an hrtimer callback: a sleep or a timeout ran out */
#define WAKER_SOFTIRQ 4

/* What could not be counted, by index (the lost array). */
#define LOST_WAITS 0	/* the waits map was full */
#define LOST_STACKS 1	/* no stack: the helper failed or the stacks map was full */
#define LOST_THREADS 2	/* the offcpu or threads map was full */
#define LOST_UNMATCHED 3 /* a switch in with no switch out since the last */
#define LOST_SLOTS 4

const volatile __u32 targ_tgid = 0; /* only this process's threads; 0: all */

/* Kernel stacks by a hash of their addresses: the key of wait_key.stack. */
struct stack {
	__u64 ips[STACK_DEPTH];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, struct stack);
} stacks SEC(".maps");

/* A thread off the CPU since ts, having left it in state (0: runnable). */
struct off {
	__u64 ts;
	__u32 state;
	__u32 tgid;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, struct off);
} offcpu SEC(".maps");

/* The last wakeup of a thread that has not run since. */
struct waker {
	__u32 tid;
	__u32 tgid;
	__u32 ctx;
	__u32 state; /* the wakee's state when woken: how it slept */
	char comm[TASK_COMM_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, struct waker);
} wakers SEC(".maps");

/* Each thread seen: its CPU time in the window and its latest name. */
struct thread {
	__u64 on_since; /* when it last came on a CPU; 0: not on one, or unknown */
	__u64 run_ns;
	__u32 tgid;
	__u32 pad;
	char comm[TASK_COMM_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, struct thread);
} threads SEC(".maps");

struct wait_key {
	__u64 stack; /* 0: none taken (preempted) or lost */
	__u32 tid;
	__u32 tgid;
	__u32 state;
	__u32 waker_tid;
	__u32 waker_tgid;
	__u16 waker_ctx;
	__u16 before; /* 1: the episode began before the window */
};

struct wait_val {
	__u64 count;
	__u64 total_ns;
	__u64 max_ns;
	char waker_comm[TASK_COMM_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct wait_key);
	__type(value, struct wait_val);
} waits SEC(".maps");

/* Interrupt context nesting on this CPU. */
struct irqctx {
	__u32 hard;
	__u32 soft;
	__u32 timer;
	__u32 vec;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct irqctx);
} irq SEC(".maps");

/* Scratch for a stack, too big for the BPF stack. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct stack);
} scratch SEC(".maps");

/* The window's start (CLOCK_MONOTONIC ns), written before attaching: a wait
 * that began before it counts from it. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} window SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LOST_SLOTS);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

static const struct wait_val zero_val;

static __always_inline void count_lost(__u32 what)
{
	__u64 *n = bpf_map_lookup_elem(&lost, &what);
	if (n)
		__sync_fetch_and_add(n, 1);
}

static __always_inline __u32 task_state(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return BPF_CORE_READ((struct task_struct___pre514 *)t, state);
}

static __always_inline int wanted(struct task_struct *t)
{
	return !targ_tgid || (__u32)BPF_CORE_READ(t, tgid) == targ_tgid;
}

/* stack_of stores t's kernel stack and returns its key, 0 if none. */
static __always_inline __u64 stack_of(struct task_struct *t)
{
	__u32 zero = 0;
	struct stack *s = bpf_map_lookup_elem(&scratch, &zero);
	if (!s)
		return 0;
	if (bpf_get_task_stack(t, s->ips, sizeof(s->ips), 0) <= 0) {
		count_lost(LOST_STACKS);
		return 0;
	}
	__u64 h = 14695981039346656037ull; /* FNV-1a over the addresses */
	for (int i = 0; i < STACK_DEPTH; i++) {
		h ^= s->ips[i];
		h *= 1099511628211ull;
	}
	h |= 1; /* never 0, which means none */
	if (bpf_map_update_elem(&stacks, &h, s, BPF_NOEXIST) && !bpf_map_lookup_elem(&stacks, &h)) {
		count_lost(LOST_STACKS);
		return 0;
	}
	return h;
}

/* leave notes that prev went off the CPU now, and its CPU time. */
static __always_inline void leave(struct task_struct *prev, __u32 state, __u64 now)
{
	__u32 tid = BPF_CORE_READ(prev, pid);
	struct thread *th = bpf_map_lookup_elem(&threads, &tid);
	if (th && th->on_since) {
		th->run_ns += now - th->on_since;
		th->on_since = 0;
	}
	if (state & TASK_DEAD) /* exiting: it never comes back */
		return;
	struct off o = {.ts = now, .state = state, .tgid = BPF_CORE_READ(prev, tgid)};
	if (bpf_map_update_elem(&offcpu, &tid, &o, BPF_ANY))
		count_lost(LOST_THREADS);
}

/* arrive notes that next came on the CPU now, under its current name, and
 * says whether it is the first time in the window. */
static __always_inline int arrive(struct task_struct *next, __u32 tid, __u64 now)
{
	int first = 0;
	struct thread *th = bpf_map_lookup_elem(&threads, &tid);
	if (!th) {
		first = 1;
		struct thread fresh = {.tgid = BPF_CORE_READ(next, tgid)};
		if (bpf_map_update_elem(&threads, &tid, &fresh, BPF_NOEXIST) && !bpf_map_lookup_elem(&threads, &tid)) {
			count_lost(LOST_THREADS);
			return first;
		}
		th = bpf_map_lookup_elem(&threads, &tid);
		if (!th)
			return first;
	}
	th->on_since = now;
	bpf_core_read_str(th->comm, sizeof(th->comm), &next->comm);
	return first;
}

/* back counts the episode that ends as next comes on the CPU now (first:
 * for the first time in the window). */
static __always_inline void back(struct task_struct *next, __u32 tid, __u64 now, int first)
{
	struct wait_key k = {.tid = tid, .tgid = BPF_CORE_READ(next, tgid)};
	__u64 since;
	struct off *o = bpf_map_lookup_elem(&offcpu, &tid);
	struct waker *w = bpf_map_lookup_elem(&wakers, &tid);
	if (o) {
		since = o->ts;
		k.state = o->state;
	} else if (!first) {
		/* It left the CPU since it last came on, and the kernel did not
		 * say so: the wait is unknown. */
		count_lost(LOST_UNMATCHED);
		goto out;
	} else {
		/* Off the CPU since before the window: woken in it if a wakeup
		 * was seen, else runnable all along. */
		__u32 zero = 0;
		__u64 *start = bpf_map_lookup_elem(&window, &zero);
		if (!start || !*start || *start > now)
			return;
		since = *start;
		k.before = 1;
		k.state = w ? w->state : 0;
	}
	if (k.state && w) {
		k.waker_ctx = w->ctx;
		k.waker_tid = w->tid;
		k.waker_tgid = w->tgid;
	}
	if (k.state)
		k.stack = stack_of(next);
	__u64 d = now - since;
	struct wait_val *v = bpf_map_lookup_elem(&waits, &k);
	if (!v) {
		if (bpf_map_update_elem(&waits, &k, &zero_val, BPF_NOEXIST) && !bpf_map_lookup_elem(&waits, &k)) {
			count_lost(LOST_WAITS);
			goto out;
		}
		v = bpf_map_lookup_elem(&waits, &k);
		if (!v)
			goto out;
		if (k.waker_ctx == WAKER_TASK && w)
			__builtin_memcpy(v->waker_comm, w->comm, sizeof(v->waker_comm));
	}
	__sync_fetch_and_add(&v->count, 1);
	__sync_fetch_and_add(&v->total_ns, d);
	if (d > v->max_ns)
		v->max_ns = d;
out:
	if (o)
		bpf_map_delete_elem(&offcpu, &tid);
	if (w)
		bpf_map_delete_elem(&wakers, &tid);
}

SEC("tp_btf/sched_switch")
int on_switch(__u64 *ctx)
{
	int preempt = (int)ctx[0];
	struct task_struct *prev = (struct task_struct *)ctx[1];
	struct task_struct *next = (struct task_struct *)ctx[2];
	__u64 now = bpf_ktime_get_ns();

	/* The idle task (pid 0) neither waits nor is waited on. */
	if (BPF_CORE_READ(prev, pid) && wanted(prev))
		leave(prev, preempt ? 0 : task_state(prev), now);
	__u32 tid = BPF_CORE_READ(next, pid);
	if (!tid || !wanted(next))
		return 0;
	back(next, tid, now, arrive(next, tid, now));
	return 0;
}

SEC("tp_btf/sched_waking")
int on_waking(__u64 *ctx)
{
	struct task_struct *p = (struct task_struct *)ctx[0];
	if (!wanted(p))
		return 0;
	__u32 tid = BPF_CORE_READ(p, pid);
	struct waker w = {.state = task_state(p)};
	__u32 zero = 0;
	struct irqctx *c = bpf_map_lookup_elem(&irq, &zero);
	if (c && c->timer)
		w.ctx = WAKER_TIMER;
	else if (c && c->hard)
		w.ctx = WAKER_HARDIRQ;
	else if (c && c->soft)
		w.ctx = WAKER_SOFTIRQ + c->vec;
	else {
		w.ctx = WAKER_TASK;
		__u64 id = bpf_get_current_pid_tgid();
		w.tid = (__u32)id;
		w.tgid = id >> 32;
		bpf_get_current_comm(w.comm, sizeof(w.comm));
	}
	bpf_map_update_elem(&wakers, &tid, &w, BPF_ANY);
	return 0;
}

/* Interrupt context tracking. An exit without its entry (the entry came
 * before the trace attached) leaves the count at 0; the exits are attached
 * before the entries, so an entry is never seen without its exit. */
static __always_inline struct irqctx *irq_here(void)
{
	__u32 zero = 0;
	return bpf_map_lookup_elem(&irq, &zero);
}

SEC("tp_btf/irq_handler_entry")
int on_irq_entry(__u64 *ctx)
{
	struct irqctx *c = irq_here();
	if (c)
		c->hard++;
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int on_irq_exit(__u64 *ctx)
{
	struct irqctx *c = irq_here();
	if (c && c->hard)
		c->hard--;
	return 0;
}

SEC("tp_btf/softirq_entry")
int on_softirq_entry(__u64 *ctx)
{
	struct irqctx *c = irq_here();
	if (c) {
		c->soft++;
		c->vec = (__u32)ctx[0];
	}
	return 0;
}

SEC("tp_btf/softirq_exit")
int on_softirq_exit(__u64 *ctx)
{
	struct irqctx *c = irq_here();
	if (c && c->soft)
		c->soft--;
	return 0;
}

SEC("tp_btf/hrtimer_expire_entry")
int on_timer_entry(__u64 *ctx)
{
	struct irqctx *c = irq_here();
	if (c)
		c->timer++;
	return 0;
}

SEC("tp_btf/hrtimer_expire_exit")
int on_timer_exit(__u64 *ctx)
{
	struct irqctx *c = irq_here();
	if (c && c->timer)
		c->timer--;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
