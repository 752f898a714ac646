package bpfprog

import (
	"context"
	"fmt"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/link"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// RunqMechanism is how RunqLatency measures.
const RunqMechanism = "eBPF on raw tracepoints sched_wakeup, sched_wakeup_new and sched_switch (a task preempted while runnable is queued again); names after exec from sched:sched_process_exec"

// RunqMaxProcesses is how many processes the program keeps a histogram for
// with PerProcess (the hists map's max_entries): the waits of processes seen
// after it is full are only counted in RunqResult.Unkeyed.
const RunqMaxProcesses = 4096

// RunqOptions are perf_runq_latency's settings.
type RunqOptions struct {
	TGID       uint32 // only this process's threads; 0: every task
	PerProcess bool   // a histogram per process instead of one
	// Host names the processes the trace had no room to name; nil is the
	// live host.
	Host *hostinfo.Host
}

// RunqHist is the run queue latency of one process (TGID 0 and no Comm: of
// everything traced): a log2 histogram of microseconds and their sum. Comm
// is the process's command at the end of the trace, after its last exec.
type RunqHist struct {
	TGID    uint32
	Comm    string
	Slots   Slots
	TotalUS uint64
}

// RunqResult is the run queue latency of a trace.
type RunqResult struct {
	Hists   []RunqHist
	Unkeyed uint64 // waits of processes the per-process table had no room for, in no histogram
}

// runqHist is the program's map value (struct runq_hist).
type runqHist struct {
	Slots   Slots
	TotalUS uint64
}

// RunqLatency measures, for d, how long runnable tasks wait for a CPU, from
// a wakeup or a preemption until they run.
func RunqLatency(ctx context.Context, d time.Duration, o RunqOptions, progress Progress) (RunqResult, error) {
	spec, err := loadRunqlat()
	var objs runqlatObjects
	consts := map[string]any{"targ_tgid": o.TGID, "per_process": boolByte(o.PerProcess)}
	if err := load("run queue latency", spec, err, consts, &objs); err != nil {
		return RunqResult{}, err
	}
	defer objs.Close()
	err = trace(ctx, d, progress, nil, nil,
		renameOnExec(objs.OnExec),
		rawTracepoint("sched_wakeup", objs.OnWakeup),
		rawTracepoint("sched_wakeup_new", objs.OnWakeupNew),
		rawTracepoint("sched_switch", objs.OnSwitch))
	if err != nil {
		return RunqResult{}, err
	}
	names, err := processNames(objs.Names)
	if err != nil {
		return RunqResult{}, err
	}
	out := RunqResult{Unkeyed: counter(objs.Unkeyed, 0)}
	var key uint32
	var v runqHist
	it := objs.Hists.Iterate()
	for it.Next(&key, &v) {
		h := RunqHist{TGID: key, Slots: v.Slots, TotalUS: v.TotalUS}
		if o.PerProcess {
			h.Comm = names.Of(liveHost(o.Host), key)
		}
		out.Hists = append(out.Hists, h)
	}
	return out, it.Err()
}

func rawTracepoint(name string, prog *ebpf.Program) attacher {
	return func() (link.Link, error) {
		l, err := link.AttachRawTracepoint(link.RawTracepointOptions{Name: name, Program: prog})
		if err != nil {
			return nil, fmt.Errorf("attaching to raw tracepoint %s: %w", name, err)
		}
		return l, nil
	}
}
