package trace

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"time"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/stacks"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/view"
)

type runqIn struct {
	DurationSeconds int  `json:"duration_seconds,omitempty" default:"5"`
	PID             int  `json:"pid,omitempty" jsonschema:"only this pid"`
	PerProcess      bool `json:"per_process,omitempty"`
	TopN            int  `json:"top_n,omitempty" default:"10"`
}

type runqOut struct {
	histOut
	TotalWaitMS    float64       `json:"total_wait_ms" jsonschema:"time all traced tasks spent runnable but not running"`
	NotInTables    uint64        `json:"not_in_tables" jsonschema:"with per_process: waits of processes the kernel's table (4096 processes) had no room for, in no histogram or total here"`
	Processes      []runqProcess `json:"processes,omitempty" jsonschema:"with per_process: by total wait, longest first"`
	ProcessesTotal int           `json:"processes_total,omitempty" jsonschema:"processes that waited at all"`
	ProcessesOf    *listed       `json:"processes_shown,omitempty" jsonschema:"processes: N of M shown, and which"`
}

type runqProcess struct {
	PID         uint32  `json:"pid"`
	Comm        string  `json:"comm" jsonschema:"what the process runs: its command after its last exec"`
	Waits       uint64  `json:"waits"`
	TotalWaitMS float64 `json:"total_wait_ms"`
	P50US       uint64  `json:"p50_us" jsonschema:"upper bound of the bucket holding the median"`
	P99US       uint64  `json:"p99_us"`
	MaxUS       uint64  `json:"max_us"`
}

func (s *Set) runqLatency() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_runq_latency",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "Run queue latency histogram (eBPF)",
		Description: "eBPF histogram of how long runnable tasks waited for a CPU; a p99 in ms means CPU saturation.",
		Timeout:     45 * time.Second,
		View:        view.URI,
	}, s.handleRunq).WithRange("duration_seconds", 1, 30).WithRange("top_n", 1, 50)
}

func (s *Set) handleRunq(ctx context.Context, call *tool.Call, in runqIn) (runqOut, error) {
	if in.PID != 0 {
		tgid, comm, err := s.processOf(in.PID)
		if err != nil {
			return runqOut{}, err
		}
		if tgid != in.PID {
			call.Warn("%d is a thread of process %d (%s): tracing the whole process", in.PID, tgid, comm)
			in.PID = tgid
		}
	}
	if err := s.preflight("perf_sched_latency (perf sched) or perf_use_check"); err != nil {
		return runqOut{}, err
	}
	d := seconds(in.DurationSeconds, 5)
	o := bpfprog.RunqOptions{TGID: uint32(in.PID), PerProcess: in.PerProcess, Host: s.host}
	res, err := bpfprog.RunqLatency(ctx, d, o, call.Elapsed(ctx, d, "tracing the run queues"))
	if err != nil {
		return runqOut{}, tool.Failed(err)
	}
	var all bpfprog.Slots
	var totalUS uint64
	procs := make([]runqProcess, 0, len(res.Hists))
	for _, h := range res.Hists {
		all.Add(h.Slots)
		totalUS += h.TotalUS
		if in.PerProcess {
			ph := h.Slots.Histogram("", 0)
			procs = append(procs, runqProcess{PID: h.TGID, Comm: h.Comm, Waits: ph.Count,
				TotalWaitMS: figures.Round3(float64(h.TotalUS) / 1000), P50US: ph.P50, P99US: ph.P99, MaxUS: ph.Max})
		}
	}
	key := "all"
	if in.PID != 0 {
		key = "pid " + strconv.Itoa(in.PID)
	}
	hist := all.Histogram(key, 0)
	out := runqOut{
		histOut:     histOut{Mechanism: bpfprog.RunqMechanism, Unit: "us", HistogramType: "log2", Total: hist.Count, Histograms: []stacks.Histogram{hist}},
		TotalWaitMS: figures.Round3(float64(totalUS) / 1000),
		NotInTables: res.Unkeyed,
	}
	var tables []cut
	if in.PerProcess {
		slices.SortFunc(procs, func(a, b runqProcess) int {
			return cmp.Or(cmp.Compare(b.TotalWaitMS, a.TotalWaitMS), cmp.Compare(a.PID, b.PID))
		})
		out.ProcessesTotal = len(procs)
		out.Processes, out.ProcessesOf = procs[:min(len(procs), cmp.Or(in.TopN, 10))], &listed{}
		tables = append(tables, head(&out.Processes, len(procs), "total wait", out.ProcessesOf))
	}
	if res.Unkeyed > 0 {
		call.Warn("more than %d processes waited: %d waits of those seen after the first %d are in no histogram; trace one pid or a shorter duration", bpfprog.RunqMaxProcesses, res.Unkeyed, bpfprog.RunqMaxProcesses)
	}
	if hist.Count == 0 && in.PID != 0 {
		call.Warn("pid %d never waited in a run queue during the trace: it slept throughout (or exited)", in.PID)
	}
	fitAnswer(&out, call.DataBudget(), nil, tables)
	return out, nil
}
