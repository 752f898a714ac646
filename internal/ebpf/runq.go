package ebpf

import (
	"context"
	"fmt"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/link"
)

// RunqMechanism is how RunqLatency measures.
const RunqMechanism = "eBPF on raw tracepoints sched_wakeup, sched_wakeup_new and sched_switch (a task preempted while runnable is queued again)"

// RunqMaxProcesses is how many processes the program keeps a histogram for
// with PerProcess (the hists map's max_entries): the waits of processes seen
// after it is full are not counted.
const RunqMaxProcesses = 4096

// RunqOptions are perf_runq_latency's settings.
type RunqOptions struct {
	TGID       uint32 // only this process's threads; 0: every task
	PerProcess bool   // a histogram per process instead of one
}

// RunqHist is the run queue latency of one process (TGID 0 and no Comm: of
// everything traced): a log2 histogram of microseconds and their sum.
type RunqHist struct {
	TGID    uint32
	Comm    string
	Slots   Slots
	TotalUS uint64
}

// runqHist is the program's map value (struct runq_hist).
type runqHist struct {
	Slots   Slots
	TotalUS uint64
	Comm    [16]byte
}

// RunqLatency measures, for d, how long runnable tasks wait for a CPU, from
// a wakeup or a preemption until they run.
func RunqLatency(ctx context.Context, d time.Duration, o RunqOptions, progress Progress) ([]RunqHist, error) {
	spec, err := loadRunqlat()
	var objs runqlatObjects
	consts := map[string]any{"targ_tgid": o.TGID, "per_process": boolByte(o.PerProcess)}
	if err := load("run queue latency", spec, err, consts, &objs); err != nil {
		return nil, err
	}
	defer objs.Close()
	err = trace(ctx, d, progress, nil, nil,
		rawTracepoint("sched_wakeup", objs.OnWakeup),
		rawTracepoint("sched_wakeup_new", objs.OnWakeupNew),
		rawTracepoint("sched_switch", objs.OnSwitch))
	if err != nil {
		return nil, err
	}
	var out []RunqHist
	var key uint32
	var v runqHist
	it := objs.Hists.Iterate()
	for it.Next(&key, &v) {
		out = append(out, RunqHist{TGID: key, Comm: cstring(v.Comm[:]), Slots: v.Slots, TotalUS: v.TotalUS})
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
