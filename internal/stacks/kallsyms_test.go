package stacks

import (
	"errors"
	"slices"
	"testing"
)

// A slice of /proc/kallsyms as root reads it on a 6.18 kernel, out of
// address order as the modules' part is, with a data symbol and a module.
const kallsymsSample = `ffffffff81000000 T _stext
ffffffff8132a510 T vfs_read
ffffffff8132a8e0 T ksys_read
ffffffff81336b70 t anon_pipe_read
ffffffff81d2f5a0 T do_syscall_64
ffffffff82000000 T entry_SYSCALL_64_after_hwframe
ffffffff82265800 T __sched_text_start
ffffffff82265810 T __schedule
ffffffff82266a40 T schedule
ffffffff8226e522 T __sched_text_end
ffffffff8226e530 T after_sched
ffffffff83a00000 D jiffies
ffffffffc0200000 t jbd2_log_wait_commit	[jbd2]
ffffffff81000100 W weak_function
`

func TestParseKallsyms(t *testing.T) {
	k, err := ParseKallsyms([]byte(kallsymsSample))
	if err != nil {
		t.Fatal(err)
	}
	for addr, want := range map[uint64]string{
		0xffffffff81336b70:          "anon_pipe_read",
		0xffffffff81336b70 + 0x393:  "anon_pipe_read",
		0xffffffff8132a510 + 0x97:   "vfs_read",
		0xffffffff81000100 + 1:      "weak_function",
		0xffffffffc0200000 + 0x40:   "jbd2_log_wait_commit",
		0xffffffff83a00000 + 8:      "after_sched", // data symbols name nothing
		0xffffffff80ffffff:          "[unknown]",
		0xffffffff82266a40 + 0x2000: "schedule",
	} {
		if got := k.Func(addr); got != want {
			t.Errorf("Func(%#x) = %q, want %q", addr, got, want)
		}
	}
	// A stack as taken at a switch out, scheduler frames first: they are
	// left out, as the kernel leaves them out of /proc/PID/wchan.
	stack := []uint64{0xffffffff82265810 + 0x10, 0xffffffff82266a40 + 0x20, 0xffffffff81336b70 + 0x393, 0xffffffff8132a510 + 0x97, 0xffffffff82000000 + 0x76}
	if got, want := k.WaitFrames(stack), []string{"anon_pipe_read", "vfs_read", "entry_SYSCALL_64_after_hwframe"}; !slices.Equal(got, want) {
		t.Errorf("WaitFrames = %q, want %q", got, want)
	}
	if got := k.WaitFrames(nil); len(got) != 0 {
		t.Errorf("WaitFrames(nil) = %q", got)
	}
}

func TestParseKallsymsRefusals(t *testing.T) {
	if _, err := ParseKallsyms([]byte("0000000000000000 T _stext\n0000000000000000 t anon_pipe_read\n")); !errors.Is(err, ErrKernelAddressesHidden) {
		t.Errorf("hidden addresses: %v, want ErrKernelAddressesHidden", err)
	}
	if _, err := ParseKallsyms([]byte("ffffffff83a00000 D jiffies\nnot a line\n")); err == nil {
		t.Error("no function at all: want an error")
	}
}

func FuzzParseKallsyms(f *testing.F) {
	f.Add([]byte(kallsymsSample), uint64(0xffffffff81336b70))
	f.Fuzz(func(t *testing.T, b []byte, addr uint64) {
		k, err := ParseKallsyms(b)
		if err == nil {
			_ = k.Func(addr)
			_ = k.WaitFrames([]uint64{addr, addr + 1})
		}
	})
}
