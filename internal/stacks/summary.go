package stacks

import (
	"cmp"
	"slices"
	"strings"
)

// FuncShare is a function's share of the samples.
type FuncShare struct {
	Function string  `json:"function"`
	Module   string  `json:"module,omitempty"`
	Samples  int64   `json:"samples"`
	Percent  float64 `json:"percent"`
}

// StackShare is one distinct stack's share, root first.
type StackShare struct {
	Stack   string  `json:"stack" jsonschema:"process;root;...;leaf"`
	Samples int64   `json:"samples"`
	Percent float64 `json:"percent"`
}

// ProcShare is a process's share.
type ProcShare struct {
	PID     int     `json:"pid"`
	Comm    string  `json:"comm"`
	Samples int64   `json:"samples"`
	Percent float64 `json:"percent"`
}

// Summary is what a CPU profile says, top first.
type Summary struct {
	TotalSamples int64        `json:"total_samples"`
	IdleSamples  int64        `json:"idle_samples" jsonschema:"samples in the kernel's idle task (pid 0, swapper): CPU time nobody used, left out of the tables below"`
	IdlePercent  float64      `json:"idle_percent"`
	TopSelf      []FuncShare  `json:"top_functions_self" jsonschema:"where the CPU was when sampled (leaf frames)"`
	TopTotal     []FuncShare  `json:"top_functions_total" jsonschema:"functions on the stack when sampled, callers included"`
	HotStacks    []StackShare `json:"hottest_stacks"`
	Processes    []ProcShare  `json:"processes"`
}

// Summarize ranks functions by self and total samples, stacks, and
// processes, keeping the top n of each. Samples of the idle task are counted
// apart: in a system-wide profile of a half-idle machine they would fill the
// tables with the idle loop and push the work an agent is looking for down.
// Percentages stay shares of all samples, so they read as shares of CPU time.
func Summarize(samples []Sample, n int) Summary {
	s := Summary{Processes: []ProcShare{}, HotStacks: []StackShare{}}
	self, total := map[string]*FuncShare{}, map[string]*FuncShare{}
	procs := map[int]*ProcShare{}
	busy := make([]Sample, 0, len(samples))
	for _, x := range samples {
		s.TotalSamples += x.Count
		if x.PID == 0 {
			s.IdleSamples += x.Count
			continue
		}
		busy = append(busy, x)
		if len(x.Stack) > 0 {
			add(self, x.Stack[0], x.Count)
		}
		seen := map[string]bool{} // recursion counts a function once per sample
		for _, f := range x.Stack {
			if k := frameName(f); !seen[k] {
				seen[k] = true
				add(total, f, x.Count)
			}
		}
		p := procs[x.PID]
		if p == nil {
			p = &ProcShare{PID: x.PID, Comm: x.Comm}
			procs[x.PID] = p
		}
		p.Samples += x.Count
	}
	pct := func(v int64) float64 {
		if s.TotalSamples == 0 {
			return 0
		}
		return float64(int64(10000*float64(v)/float64(s.TotalSamples))) / 100
	}
	s.IdlePercent = pct(s.IdleSamples)
	s.TopSelf, s.TopTotal = top(self, n, pct), top(total, n, pct)
	for _, p := range procs {
		p.Percent = pct(p.Samples)
		s.Processes = append(s.Processes, *p)
	}
	slices.SortFunc(s.Processes, func(a, b ProcShare) int { return cmp.Or(cmp.Compare(b.Samples, a.Samples), cmp.Compare(a.PID, b.PID)) })
	s.Processes = s.Processes[:min(n, len(s.Processes))]
	for _, line := range strings.Split(strings.TrimSpace(string(Collapsed(busy))), "\n") {
		if sp := strings.LastIndexByte(line, ' '); sp > 0 {
			var c int64
			for _, ch := range line[sp+1:] {
				c = c*10 + int64(ch-'0')
			}
			s.HotStacks = append(s.HotStacks, StackShare{Stack: line[:sp], Samples: c, Percent: pct(c)})
		}
	}
	slices.SortStableFunc(s.HotStacks, func(a, b StackShare) int { return cmp.Compare(b.Samples, a.Samples) })
	s.HotStacks = s.HotStacks[:min(5, len(s.HotStacks))]
	return s
}

func add(m map[string]*FuncShare, f Frame, n int64) {
	k := frameName(f)
	fs := m[k]
	if fs == nil {
		fs = &FuncShare{Function: k, Module: baseName(f.Module)}
		m[k] = fs
	}
	fs.Samples += n
}

func top(m map[string]*FuncShare, n int, pct func(int64) float64) []FuncShare {
	out := make([]FuncShare, 0, len(m))
	for _, f := range m {
		f.Percent = pct(f.Samples)
		out = append(out, *f)
	}
	slices.SortFunc(out, func(a, b FuncShare) int {
		return cmp.Or(cmp.Compare(b.Samples, a.Samples), cmp.Compare(a.Function, b.Function))
	})
	return out[:min(n, len(out))]
}
