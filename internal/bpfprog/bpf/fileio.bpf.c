// SPDX-License-Identifier: GPL-2.0
/* perf_vfs_latency, perf_file_trace slow_ops and perf_io_layers' eBPF mode:
 * read and write calls (read, write, pread64, pwrite64, readv, writev)
 * timed from raw_syscalls sys_enter to sys_exit. Every call on a regular
 * file (any file with all_files) is counted, goes into a latency
 * histogram, and is counted by process, file and errno in by_file; calls
 * at least min_ns long are also sent as records with the file's name,
 * resolved from the descriptor through the task's fd table. The counts
 * cover every call of the window: a full ring loses records, never counts. */
#include "types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "common.h"
#include "hist.h"
#include "names.h"
#include "ring.h"

const volatile __u32 nr_read = NO_SYSCALL, nr_write = NO_SYSCALL;
const volatile __u32 nr_pread = NO_SYSCALL, nr_pwrite = NO_SYSCALL;
const volatile __u32 nr_readv = NO_SYSCALL, nr_writev = NO_SYSCALL;
const volatile __u32 target_tgid = 0;
const volatile __u32 self_tgid = 0;    /* hostmcp itself, never traced */
const volatile __u8 all_files = 0;     /* also sockets, pipes, devices */
const volatile __u64 min_ns = ~0ull;   /* records for calls this slow */

enum { OP_READ = 0, OP_WRITE = 1 };

struct call {
	__u64 ts;
	__u32 fd;
	__u32 op;
};

struct io_event {
	__u64 ts;
	__u64 latency_ns;
	__s64 ret;
	__u64 ino;
	__u32 pid;
	__u32 op;
	__u32 fd;
	__u32 mode;
	__u32 dev;
	__u32 _pad;
	char comm[TASK_COMM_LEN];
	char name[64];
};

/* Per operation: calls, bytes, and a log2 histogram of microseconds. */
struct op_stat {
	__u64 calls;
	__u64 bytes;
	__u64 errors;
	struct hist us;
	__u64 slow;    /* calls at least min_ns long */
	__u64 unkeyed; /* calls counted here only: by_file was full */
};

/* A row of by_file: a process, the operation, its errno (0: it
 * succeeded) and the file, by device and inode. */
struct file_key {
	__u32 tgid;
	__u32 op;
	__u32 err;
	__u32 dev;
	__u64 ino;
};

struct file_stat {
	__u64 calls;
	__u64 bytes;
	__u64 total_ns;
	__u64 max_ns;
	__u64 slow;
	__u32 fd;   /* a descriptor the process used: user space names the file by it */
	__u32 mode;
	char name[64];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);
	__type(value, struct call);
} calls SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct op_stat);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct file_key);
	__type(value, struct file_stat);
} by_file SEC(".maps");

static const struct file_stat zero;

static __always_inline int op_of(long id)
{
	if (id == nr_read || id == nr_pread || id == nr_readv)
		return OP_READ;
	if (id == nr_write || id == nr_pwrite || id == nr_writev)
		return OP_WRITE;
	return -1;
}

SEC("tracepoint/raw_syscalls/sys_enter")
int on_enter(struct trace_event_raw_sys_enter *ctx)
{
	int op = op_of(BPF_CORE_READ(ctx, id));
	if (op < 0)
		return 0;
	__u32 tgid = current_tgid();
	if ((target_tgid && tgid != target_tgid) || tgid == self_tgid)
		return 0;
	struct call c = {.ts = bpf_ktime_get_ns(), .fd = BPF_CORE_READ(ctx, args[0]), .op = op};
	__u32 tid = current_tid();
	bpf_map_update_elem(&calls, &tid, &c, BPF_ANY);
	return 0;
}

/* count_file adds a call to its row of by_file; false when the table is
 * full. */
static __always_inline int count_file(struct file_key *k, struct file *f, __u32 fd, __u32 mode, long ret, __u64 lat)
{
	struct file_stat *s = bpf_map_lookup_elem(&by_file, k);
	if (!s) {
		bpf_map_update_elem(&by_file, k, &zero, BPF_NOEXIST);
		s = bpf_map_lookup_elem(&by_file, k);
		if (!s)
			return 0;
		s->mode = mode;
		const unsigned char *name = BPF_CORE_READ(f, f_path.dentry, d_name.name);
		bpf_probe_read_kernel_str(&s->name, sizeof(s->name), name);
	}
	s->fd = fd;
	__sync_fetch_and_add(&s->calls, 1);
	if (ret > 0)
		__sync_fetch_and_add(&s->bytes, ret);
	__sync_fetch_and_add(&s->total_ns, lat);
	if (lat > s->max_ns)
		s->max_ns = lat; /* racy between CPUs, off by one call at worst */
	if (lat >= min_ns)
		__sync_fetch_and_add(&s->slow, 1);
	return 1;
}

SEC("tracepoint/raw_syscalls/sys_exit")
int on_exit(struct trace_event_raw_sys_exit *ctx)
{
	__u32 tid = current_tid();
	struct call *c = bpf_map_lookup_elem(&calls, &tid);
	if (!c)
		return 0;
	__u64 lat = bpf_ktime_get_ns() - c->ts;
	__u32 fd = c->fd, op = c->op;
	bpf_map_delete_elem(&calls, &tid);

	struct file *f = fd_file(fd);
	if (!f)
		return 0;
	__u32 mode = BPF_CORE_READ(f, f_inode, i_mode);
	if (!all_files && (mode & S_IFMT) != S_IFREG)
		return 0;
	long ret = BPF_CORE_READ(ctx, ret);
	struct op_stat *s = bpf_map_lookup_elem(&stats, &op);
	if (!s)
		return 0;
	__sync_fetch_and_add(&s->calls, 1);
	if (ret >= 0)
		__sync_fetch_and_add(&s->bytes, ret);
	else
		__sync_fetch_and_add(&s->errors, 1);
	hist_add(&s->us, lat / 1000, 0);
	if (lat >= min_ns)
		__sync_fetch_and_add(&s->slow, 1);

	__u32 tgid = current_tgid();
	struct file_key k = {.tgid = tgid, .op = op, .err = ret < 0 ? -ret : 0};
	k.dev = BPF_CORE_READ(f, f_inode, i_sb, s_dev);
	k.ino = BPF_CORE_READ(f, f_inode, i_ino);
	name_seen(tgid);
	if (!count_file(&k, f, fd, mode, ret, lat))
		__sync_fetch_and_add(&s->unkeyed, 1);

	if (lat < min_ns)
		return 0;
	struct io_event e = {.latency_ns = lat, .ret = ret, .op = op, .fd = fd, .mode = mode, .dev = k.dev, .ino = k.ino};
	e.ts = bpf_ktime_get_ns();
	e.pid = tgid;
	bpf_get_current_comm(&e.comm, sizeof(e.comm));
	const unsigned char *name = BPF_CORE_READ(f, f_path.dentry, d_name.name);
	bpf_probe_read_kernel_str(&e.name, sizeof(e.name), name);
	emit(&e, sizeof(e));
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
