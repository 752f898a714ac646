package trace

import (
	"cmp"
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"time"

	"github.com/hostmcp/hostmcp/internal/ebpf"
	"github.com/hostmcp/hostmcp/internal/num"
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
	Syscalls    []syscallRow `json:"syscalls" jsonschema:"top_n by count"`
	Processes   []processRow `json:"processes,omitempty" jsonschema:"top_n by count, with per_process"`
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
	if err := preflight(""); err != nil {
		return syscountOut{}, err
	}
	if len(in.Comm) > 15 {
		call.Warn("comm %q is longer than the kernel keeps (15 bytes): matching on %q", tool.Clip(in.Comm), in.Comm[:15])
	}
	d := seconds(in.DurationSeconds, 10)
	o := ebpf.SyscountOptions{TGID: uint32(max(in.PID, 0)), Comm: in.Comm, ErrorsOnly: in.IncludeErrors, Latency: in.IncludeLatency}
	c, err := ebpf.CountSyscalls(ctx, d, o, progress(ctx, call, d, "counting system calls"))
	if err != nil {
		return syscountOut{}, failed(err)
	}
	top := cmp.Or(in.TopN, 20)
	out := syscountOut{Mechanism: ebpf.SyscountMechanism, OnlyErrors: in.IncludeErrors}
	for nr, st := range c.ByNumber {
		out.TotalCalls += st.Count
		out.TotalErrors += st.Errors
		row := syscallRow{Name: ebpf.SyscallName(nr), Count: st.Count, Errors: st.Errors}
		if in.IncludeLatency {
			total, avg := ms(time.Duration(st.TotalNS)), num.Round3(float64(st.TotalNS)/float64(max(st.Count, 1))/1000)
			row.TotalMS, row.AvgUS = &total, &avg
		}
		out.Syscalls = append(out.Syscalls, row)
	}
	slices.SortFunc(out.Syscalls, func(a, b syscallRow) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name)) })
	out.Syscalls = out.Syscalls[:min(top, len(out.Syscalls))]
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
		out.Processes = out.Processes[:min(top, len(out.Processes))]
	}
	out.CallsPerSec = num.Round3(float64(out.TotalCalls) / d.Seconds())
	return out, nil
}

// execIn is perf_exec_trace's input (spec 000 section 9.13).
type execIn struct {
	DurationSeconds   int    `json:"duration_seconds,omitempty" default:"10"`
	PID               int    `json:"pid,omitempty" jsonschema:"only children of this parent"`
	NamePattern       string `json:"name_pattern,omitempty" jsonschema:"regex on command name and file"`
	UID               *int   `json:"uid,omitempty" jsonschema:"only this user id"`
	IncludeFailed     bool   `json:"include_failed,omitempty"`
	MaxArgs           int    `json:"max_args,omitempty" jsonschema:"per exec" default:"20"`
	IncludeTimestamps bool   `json:"include_timestamps,omitempty"`
}

type execRow struct {
	Time          *float64 `json:"time_s,omitempty"`
	PID           uint32   `json:"pid"`
	PPID          uint32   `json:"ppid"`
	UID           uint32   `json:"uid"`
	Comm          string   `json:"comm"`
	Filename      string   `json:"filename"`
	Args          []string `json:"args"`
	ArgsTruncated bool     `json:"args_truncated,omitempty"`
	Error         string   `json:"error,omitempty" jsonschema:"why the exec failed (ENOENT, EACCES...)"`
}

type execOut struct {
	Mechanism string    `json:"mechanism"`
	Total     int       `json:"total" jsonschema:"execs matching the filters"`
	Failed    int       `json:"failed"`
	Lost      uint64    `json:"lost" jsonschema:"records the kernel dropped because the ring buffer was full"`
	Execs     []execRow `json:"execs" jsonschema:"in order, at most 500"`
}

func (s *Set) execTrace() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_exec_trace",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "Trace process executions (eBPF)",
		Description: "Every exec (execsnoop) with parent, user, file and arguments, short-lived processes included.",
		Timeout:     45 * time.Second,
	}, s.handleExec).WithRange("duration_seconds", 1, 30).WithRange("max_args", 1, 20)
}

func (s *Set) handleExec(ctx context.Context, call *tool.Call, in execIn) (execOut, error) {
	var re *regexp.Regexp
	if in.NamePattern != "" {
		var err error
		if re, err = tool.CompileRegexp("name_pattern", in.NamePattern, ""); err != nil {
			return execOut{}, err
		}
	}
	if err := preflight(""); err != nil {
		return execOut{}, err
	}
	d := seconds(in.DurationSeconds, 10)
	out := execOut{Mechanism: ebpf.ExecMechanism, Execs: []execRow{}}
	start := clock()
	lost, err := ebpf.ExecTrace(ctx, d, cmp.Or(in.MaxArgs, ebpf.MaxExecArgs), progress(ctx, call, d, "tracing execs"), func(e ebpf.ExecEvent) {
		switch {
		case e.Ret != 0 && !in.IncludeFailed,
			in.PID > 0 && e.PPID != uint32(in.PID),
			in.UID != nil && e.UID != uint32(*in.UID),
			re != nil && !re.MatchString(e.Comm) && !re.MatchString(filepath.Base(e.Filename)):
			return
		}
		out.Total++
		if e.Ret != 0 {
			out.Failed++
		}
		if len(out.Execs) >= maxRecords {
			return
		}
		row := execRow{PID: e.PID, PPID: e.PPID, UID: e.UID, Comm: e.Comm, Filename: e.Filename, Args: e.Args,
			ArgsTruncated: e.ArgsTruncated, Error: errnoName(int64(e.Ret))}
		if row.Args == nil {
			row.Args = []string{}
		}
		if in.IncludeTimestamps {
			t := relSeconds(e.Time, start)
			row.Time = &t
		}
		out.Execs = append(out.Execs, row)
	})
	if err != nil {
		return execOut{}, failed(err)
	}
	out.Lost = lost
	if out.Total > len(out.Execs) {
		call.Warn("%d execs matched; the first %d are listed", out.Total, len(out.Execs))
	}
	return out, nil
}
