package trace

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// syscountIn is perf_syscall_count's input (spec 000 section 9.12).
type syscountIn struct {
	DurationSeconds int    `json:"duration_seconds,omitempty" default:"10"`
	PID             int    `json:"pid,omitempty" jsonschema:"only this pid"`
	Comm            string `json:"comm,omitempty" jsonschema:"exact command name"`
	TopN            int    `json:"top_n,omitempty" default:"20"`
	IncludeLatency  bool   `json:"include_latency,omitempty"`
	PerProcess      bool   `json:"per_process,omitempty"`
	IncludeErrors   bool   `json:"include_errors,omitempty" jsonschema:"count only failed calls"`
}

type syscallRow struct {
	Name    string   `json:"name"`
	Count   uint64   `json:"count"`
	Errors  uint64   `json:"errors"`
	TotalMS *float64 `json:"total_ms,omitempty"`
	AvgUS   *float64 `json:"avg_us,omitempty"`
}

type processRow struct {
	PID     uint32   `json:"pid"`
	Comm    string   `json:"comm"`
	Count   uint64   `json:"count"`
	Errors  uint64   `json:"errors"`
	TotalMS *float64 `json:"total_ms,omitempty"`
}

type syscountOut struct {
	Mechanism   string       `json:"mechanism"`
	OnlyErrors  bool         `json:"only_errors"`
	TotalCalls  uint64       `json:"total_calls"`
	TotalErrors uint64       `json:"total_errors"`
	CallsPerSec float64      `json:"calls_per_second"`
	NotInTables uint64       `json:"not_in_tables" jsonschema:"calls in the totals of processes the kernel's table (8192 processes) had no room for"`
	Syscalls    []syscallRow `json:"syscalls" jsonschema:"top_n by count"`
	SyscallsOf  listed       `json:"syscalls_shown" jsonschema:"syscalls: N of M shown, and which"`
	Processes   []processRow `json:"processes,omitempty" jsonschema:"top_n by count, with per_process; each named by what it runs after its last exec"`
	ProcessesOf *listed      `json:"processes_shown,omitempty" jsonschema:"processes: N of M shown, and which"`
}

func (s *Set) syscallCount() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_syscall_count",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "Count system calls (eBPF)",
		Description: "Count system calls in the kernel: top syscalls with errors and optional latency, busiest processes.",
		Timeout:     75 * time.Second,
	}, s.handleSyscount).WithRange("duration_seconds", 1, 60).WithRange("top_n", 1, 50)
}

func (s *Set) handleSyscount(ctx context.Context, call *tool.Call, in syscountIn) (syscountOut, error) {
	if err := s.preflight(""); err != nil {
		return syscountOut{}, err
	}
	if len(in.Comm) > 15 {
		call.Warn("comm %q is longer than the kernel keeps (15 bytes): matching on %q", tool.Clip(in.Comm), in.Comm[:15])
	}
	d := seconds(in.DurationSeconds, 10)
	o := bpfprog.SyscountOptions{TGID: uint32(max(in.PID, 0)), Comm: in.Comm, ErrorsOnly: in.IncludeErrors, Latency: in.IncludeLatency, Host: s.host}
	c, err := bpfprog.CountSyscalls(ctx, d, o, call.Elapsed(ctx, d, "counting system calls"))
	if err != nil {
		return syscountOut{}, tool.Failed(err)
	}
	top := cmp.Or(in.TopN, 20)
	out := syscountOut{Mechanism: bpfprog.SyscountMechanism, OnlyErrors: in.IncludeErrors, NotInTables: c.Unkeyed}
	for nr, st := range c.ByNumber {
		out.TotalCalls += st.Count
		out.TotalErrors += st.Errors
		row := syscallRow{Name: bpfprog.SyscallName(nr), Count: st.Count, Errors: st.Errors}
		if in.IncludeLatency {
			total, avg := ms(time.Duration(st.TotalNS)), figures.Round3(float64(st.TotalNS)/float64(max(st.Count, 1))/1000)
			row.TotalMS, row.AvgUS = &total, &avg
		}
		out.Syscalls = append(out.Syscalls, row)
	}
	slices.SortFunc(out.Syscalls, func(a, b syscallRow) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name)) })
	if out.Syscalls == nil {
		out.Syscalls = []syscallRow{}
	}
	nsys := len(out.Syscalls)
	out.Syscalls = out.Syscalls[:min(top, nsys)]
	tables := []cut{head(&out.Syscalls, nsys, "count", &out.SyscallsOf)}
	if in.PerProcess {
		for pid, st := range c.ByProcess {
			row := processRow{PID: pid, Comm: st.Comm, Count: st.Count, Errors: st.Errors}
			if in.IncludeLatency {
				total := ms(time.Duration(st.TotalNS))
				row.TotalMS = &total
			}
			out.Processes = append(out.Processes, row)
		}
		slices.SortFunc(out.Processes, func(a, b processRow) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.PID, b.PID)) })
		nprocs := len(out.Processes)
		out.Processes, out.ProcessesOf = out.Processes[:min(top, nprocs)], &listed{}
		tables = append(tables, head(&out.Processes, nprocs, "count", out.ProcessesOf))
	}
	out.CallsPerSec = figures.Round3(float64(out.TotalCalls) / d.Seconds())
	fitAnswer(&out, call.DataBudget(), nil, tables)
	return out, nil
}
