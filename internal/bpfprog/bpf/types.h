/* The few kernel types the hostmcp eBPF programs read, declared with
 * preserve_access_index so that libbpf/cilium-ebpf relocate every field
 * access against the running kernel's BTF (CO-RE): a kernel whose layout
 * differs still loads the same object. Only the fields used are listed;
 * their names follow the kernel's tracepoint structs. */
#ifndef HOSTMCP_TYPES_H
#define HOSTMCP_TYPES_H

typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef signed int __s32;
typedef signed long long __s64;
typedef __u32 __be32;
typedef __u16 __be16;
typedef __u32 __wsum;

enum bpf_map_type {
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_PERCPU_ARRAY = 6,
	BPF_MAP_TYPE_PERCPU_HASH = 5,
	BPF_MAP_TYPE_RINGBUF = 27,
};

enum {
	BPF_ANY = 0,
	BPF_NOEXIST = 1,
	BPF_EXIST = 2,
};

#define BPF_F_NO_PREALLOC 1 /* a hash map's entries allocated as they are added */

#define TASK_COMM_LEN 16

struct trace_entry {
	unsigned short type;
	unsigned char flags;
	unsigned char preempt_count;
	int pid;
} __attribute__((preserve_access_index));

struct trace_event_raw_block_rq {
	struct trace_entry ent;
	__u32 dev;
	__u64 sector;
	unsigned int nr_sector;
	unsigned int bytes;
} __attribute__((preserve_access_index));

struct trace_event_raw_block_rq_completion {
	struct trace_entry ent;
	__u32 dev;
	__u64 sector;
	unsigned int nr_sector;
	int error;
} __attribute__((preserve_access_index));

struct trace_event_raw_sched_process_exec {
	struct trace_entry ent;
	__u32 __data_loc_filename;
	int pid;
	int old_pid;
} __attribute__((preserve_access_index));

struct trace_event_raw_sys_enter {
	struct trace_entry ent;
	long id;
	unsigned long args[6];
} __attribute__((preserve_access_index));

struct trace_event_raw_sys_exit {
	struct trace_entry ent;
	long id;
	long ret;
} __attribute__((preserve_access_index));

struct trace_event_raw_inet_sock_set_state {
	struct trace_entry ent;
	const void *skaddr;
	int oldstate;
	int newstate;
	__u16 sport;
	__u16 dport;
	__u16 family;
	__u16 protocol;
	__u8 saddr[4];
	__u8 daddr[4];
	__u8 saddr_v6[16];
	__u8 daddr_v6[16];
} __attribute__((preserve_access_index));

/* What perf_tcp_trace reads of a closing socket. */
struct tcp_sock {
	__u64 bytes_received;
	__u64 bytes_acked;
} __attribute__((preserve_access_index));

/* The chain from a task's file descriptor to the file's name and type. */
struct qstr {
	const unsigned char *name;
} __attribute__((preserve_access_index));

struct dentry {
	struct qstr d_name;
} __attribute__((preserve_access_index));

struct path {
	struct dentry *dentry;
} __attribute__((preserve_access_index));

struct super_block {
	__u32 s_dev;
} __attribute__((preserve_access_index));

struct inode {
	unsigned short i_mode;
	unsigned long i_ino;
	struct super_block *i_sb;
} __attribute__((preserve_access_index));

struct file {
	struct path f_path;
	struct inode *f_inode;
} __attribute__((preserve_access_index));

struct fdtable {
	unsigned int max_fds;
	struct file **fd;
} __attribute__((preserve_access_index));

struct files_struct {
	struct fdtable *fdt;
} __attribute__((preserve_access_index));

struct task_struct {
	unsigned int __state;
	int pid;
	int tgid;
	char comm[TASK_COMM_LEN];
	struct task_struct *real_parent;
	struct task_struct *group_leader;
	struct files_struct *files;
} __attribute__((preserve_access_index));

/* Kernels before 5.14 name the task's state "state" (a long). */
struct task_struct___pre514 {
	long state;
} __attribute__((preserve_access_index));

#define TASK_RUNNING 0

#define S_IFMT 00170000
#define S_IFREG 0100000

#endif
