package stacks

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// ErrKernelAddressesHidden is ParseKallsyms's answer when every address is
// 0: the kernel hides them (kptr_restrict, or a reader without CAP_SYSLOG).
var ErrKernelAddressesHidden = errors.New("/proc/kallsyms shows no addresses (kptr_restrict, or no CAP_SYSLOG)")

// Kallsyms names kernel code addresses after the functions they fall in.
type Kallsyms struct {
	syms []ksym // text symbols by address
	// The scheduler's own code (.sched.text: schedule, io_schedule,
	// schedule_timeout, the mutex and rwsem slow paths...), which the
	// kernel leaves out of wait channels.
	schedStart, schedEnd uint64
}

type ksym struct {
	addr uint64
	name string
}

// ParseKallsyms reads /proc/kallsyms ("ffffffff81000000 T _stext", module
// symbols followed by "\t[module]"; see Documentation/admin-guide/sysctl/kernel.rst
// on kptr_restrict), keeping the text symbols (types t, T, w, W).
func ParseKallsyms(b []byte) (*Kallsyms, error) {
	k := &Kallsyms{}
	nonZero := false
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		// "addr type name[\t[module]]"
		sp := bytes.IndexByte(line, ' ')
		if sp <= 0 || len(line) < sp+4 || line[sp+2] != ' ' {
			continue
		}
		addr, err := strconv.ParseUint(string(line[:sp]), 16, 64)
		if err != nil {
			continue
		}
		name := line[sp+3:]
		if tab := bytes.IndexByte(name, '\t'); tab >= 0 {
			name = name[:tab]
		}
		nonZero = nonZero || addr != 0
		switch string(name) {
		case "__sched_text_start":
			k.schedStart = addr
		case "__sched_text_end":
			k.schedEnd = addr
		}
		switch line[sp+1] {
		case 't', 'T', 'w', 'W':
			k.syms = append(k.syms, ksym{addr, string(name)})
		}
	}
	if len(k.syms) == 0 {
		return nil, fmt.Errorf("/proc/kallsyms lists no kernel functions")
	}
	if !nonZero {
		return nil, ErrKernelAddressesHidden
	}
	slices.SortStableFunc(k.syms, func(a, b ksym) int { return cmp.Compare(a.addr, b.addr) })
	return k, nil
}

// Func is the function addr falls in, or "[unknown]" below the first.
func (k *Kallsyms) Func(addr uint64) string {
	i, found := slices.BinarySearchFunc(k.syms, addr, func(s ksym, a uint64) int { return cmp.Compare(s.addr, a) })
	if !found {
		i--
	}
	if i < 0 {
		return unknown
	}
	return k.syms[i].name
}

// inSched reports whether addr is the scheduler's own code.
func (k *Kallsyms) inSched(addr uint64) bool {
	return k.schedStart < k.schedEnd && addr >= k.schedStart && addr < k.schedEnd
}

// WaitFrames names the frames of a kernel stack a thread waited on, leaf
// first, from the first one outside the scheduler's code, as the kernel
// picks /proc/PID/wchan: its first frame is the wait's reason. (The stacks
// bpf_get_task_stack takes already start there; this holds for any stack.)
func (k *Kallsyms) WaitFrames(ips []uint64) []string {
	i := 0
	for i < len(ips) && k.inSched(ips[i]) {
		i++
	}
	out := make([]string, 0, len(ips)-i)
	for _, ip := range ips[i:] {
		out = append(out, k.Func(ip))
	}
	return out
}
