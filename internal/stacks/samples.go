// Package stacks turns what perf records into answers and artifacts: it
// decodes samples (perf data convert --to-json, or perf script), summarises
// them, and writes collapsed stacks, pprof profiles and flame graph SVGs;
// it also reads perf sched and block tracepoint output. Everything here is
// pure: bytes in, values out, so fixtures test it exactly.
package stacks

import "strings"

// Frame is one function of a stack.
type Frame struct {
	Func   string // symbol, or "[unknown]"
	Module string // the DSO: a binary, a library, [kernel.kallsyms]
}

// Sample is one stack seen Count times in one thread.
type Sample struct {
	PID, TID int
	Comm     string
	Stack    []Frame // leaf first, as perf prints it
	Count    int64
}

// unknown names a frame perf could not symbolise.
const unknown = "[unknown]"

// frameName is how a frame is shown: the function, or the module in
// brackets when only that is known, so unsymbolised code still groups.
func frameName(f Frame) string {
	if f.Func != "" && f.Func != unknown {
		return f.Func
	}
	if f.Module != "" && f.Module != unknown {
		return "[" + baseName(f.Module) + "]"
	}
	return unknown
}

func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// sanitize keeps a name usable in collapsed stacks, where ';' separates
// frames and the last space separates the count.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ';':
			return ':'
		case '\n', '\r', '\t':
			return ' '
		}
		return r
	}, s)
}

// isKernel reports whether a frame is kernel code, for include_kernel.
func isKernel(f Frame) bool {
	return strings.HasPrefix(f.Module, "[kernel")
}

// DropKernel removes kernel frames; a sample left with no frame keeps one
// "[kernel]" frame so its time is still counted (the thread was in the
// kernel) rather than silently lost.
func DropKernel(samples []Sample) []Sample {
	out := make([]Sample, 0, len(samples))
	for _, s := range samples {
		st := make([]Frame, 0, len(s.Stack))
		for _, f := range s.Stack {
			if !isKernel(f) {
				st = append(st, f)
			}
		}
		if len(st) == 0 {
			st = []Frame{{Func: "[kernel]", Module: "[kernel.kallsyms]"}}
		}
		s.Stack = st
		out = append(out, s)
	}
	return out
}
