package stacks

import "strings"

// TaskState names a kernel task state (the task_struct's __state bits,
// include/linux/sched.h) as a thread left the CPU: 0 is runnable, which
// off the CPU means preempted, waiting for a CPU.
func TaskState(s uint32) string {
	const (
		interruptible   = 0x1
		uninterruptible = 0x2
		stopped         = 0x4
		traced          = 0x8
		parked          = 0x40
		noload          = 0x400 // with uninterruptible: TASK_IDLE, a kernel thread with no work
	)
	switch {
	case s == 0:
		return "preempted"
	case s&uninterruptible != 0 && s&noload != 0, s&parked != 0:
		return "idle"
	case s&uninterruptible != 0:
		return "uninterruptible"
	case s&interruptible != 0:
		return "sleeping"
	case s&(stopped|traced) != 0:
		return "stopped"
	}
	return "other"
}

// waitKinds tell what a wait is from the functions on its stack, checked
// leaf first: the first frame that contains a pattern decides.
var waitKinds = []struct{ pattern, kind string }{
	{"pipe_read", "pipe"}, {"pipe_write", "pipe"}, {"wait_for_partner", "pipe"},
	{"futex_", "futex"},
	{"ep_poll", "epoll"}, {"do_epoll_wait", "epoll"},
	{"do_select", "poll"}, {"do_sys_poll", "poll"},
	{"nanosleep", "sleep"},
	{"jbd2", "journal"},
	{"folio_wait", "disk I/O"}, {"wait_on_page", "disk I/O"}, {"wait_on_buffer", "disk I/O"}, {"bit_wait_io", "disk I/O"},
	{"blk_mq_get_tag", "disk I/O"}, {"submit_bio_wait", "disk I/O"}, {"iomap_dio", "disk I/O"}, {"blkdev_direct_IO", "disk I/O"},
	{"wait_for_completion_io", "disk I/O"},
	{"sk_wait_data", "socket"}, {"unix_stream_", "socket"}, {"inet_csk_accept", "socket"}, {"sk_stream_wait", "socket"},
	{"skb_wait_for_more_packets", "socket"}, {"tcp_recvmsg", "socket"}, {"udp_recvmsg", "socket"},
	{"do_wait", "child"},
	{"sigtimedwait", "signal"}, {"sigsuspend", "signal"},
	{"n_tty_read", "terminal"},
	{"io_cqring_wait", "io_uring"},
	{"do_msgrcv", "ipc"}, {"do_semtimedop", "ipc"},
}

// WaitKind says in a word what a wait's stack (leaf first) waits for:
// pipe, futex, epoll, poll, sleep, journal, disk I/O, socket, child,
// signal, terminal, io_uring, ipc; "" when no frame tells.
func WaitKind(frames []string) string {
	for _, f := range frames {
		for _, k := range waitKinds {
			if strings.Contains(f, k.pattern) {
				return k.kind
			}
		}
	}
	return ""
}
