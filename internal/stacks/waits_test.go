package stacks

import "testing"

func TestTaskState(t *testing.T) {
	for state, want := range map[uint32]string{
		0:                  "preempted",
		0x1:                "sleeping",
		0x1 | 0x2000:       "sleeping", // TASK_FREEZABLE
		0x2:                "uninterruptible",
		0x2 | 0x100:        "uninterruptible", // TASK_KILLABLE
		0x2 | 0x400:        "idle",            // TASK_IDLE
		0x40:               "idle",            // a parked kernel thread
		0x4:                "stopped",
		0x8:                "stopped",
		0x8000:             "other",
		0x1 | 0x2 | 0x8000: "uninterruptible",
	} {
		if got := TaskState(state); got != want {
			t.Errorf("TaskState(%#x) = %q, want %q", state, got, want)
		}
	}
}

func TestWaitKind(t *testing.T) {
	for _, tc := range []struct {
		frames []string
		want   string
	}{
		{[]string{"anon_pipe_read", "vfs_read", "ksys_read"}, "pipe"},
		{[]string{"pipe_read", "vfs_read"}, "pipe"},
		{[]string{"futex_do_wait", "__futex_wait", "futex_wait"}, "futex"},
		{[]string{"futex_wait_queue", "futex_wait"}, "futex"},
		{[]string{"do_epoll_wait", "__x64_sys_epoll_wait"}, "epoll"},
		{[]string{"hrtimer_nanosleep", "common_nsleep"}, "sleep"},
		{[]string{"jbd2_log_wait_commit", "ext4_sync_file"}, "journal"},
		{[]string{"folio_wait_bit_common", "filemap_fault"}, "disk I/O"},
		{[]string{"wait_woken", "sk_wait_data", "tcp_recvmsg_locked"}, "socket"},
		{[]string{"do_wait", "kernel_wait4"}, "child"},
		{[]string{"smpboot_thread_fn", "kthread"}, ""},
		{nil, ""},
	} {
		if got := WaitKind(tc.frames); got != tc.want {
			t.Errorf("WaitKind(%q) = %q, want %q", tc.frames, got, tc.want)
		}
	}
}
