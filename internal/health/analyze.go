package health

import (
	"fmt"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// AnalyzeUSE applies the USE method with spec 000 appendix B's thresholds to
// a snapshot: utilisation, saturation and errors of CPU, memory, disk and
// network, PSI included where the kernel has it, and file system capacity.
// Everything judged was measured over the snapshot's interval; where a
// cgroup's own limit (a CPU quota, a memory limit, a block I/O limit)
// explains a symptom, the suspicions name the cgroup, its processes and
// the numbers.
func AnalyzeUSE(s hostinfo.PerfSnapshot) UseCheck {
	u, _ := analyze(s)
	return u
}

// analyze is AnalyzeUSE with every check it made, healthy ones included,
// which a comparison with a baseline matches one by one.
func analyze(s hostinfo.PerfSnapshot) (UseCheck, []finding) {
	j := &judge{s: s}
	r := UseResources{CPU: j.cpu(), Memory: j.memory(), Disk: j.disk(), Network: j.network(), Filesystem: j.filesystem()}
	return UseCheck{IntervalMS: s.IntervalMS, Summary: summarize(j.all), Resources: r}, j.all
}

// judge collects the checks of one snapshot.
type judge struct {
	s   hostinfo.PerfSnapshot
	all []finding
}

func (j *judge) add(fs ...finding) []finding { j.all = append(j.all, fs...); return fs }

// seconds is the interval judged, for details.
func (j *judge) seconds() float64 { return float64(j.s.IntervalMS) / 1000 }

func (j *judge) cpu() UseMetrics {
	c := j.s.CPU
	util := j.add(check("cpu", "utilization", ThreshCPUBusy, ThreshCPUBusy.Metric, c.Utilization.Busy,
		fmt.Sprintf("CPU busy %.0f%% of %d CPUs (user %.0f%%, system %.0f%%, steal %.0f%%)",
			c.Utilization.Busy, c.Count, c.Utilization.User+c.Utilization.Nice, c.Utilization.System, c.Utilization.Steal)))
	perCPU := 0.0
	if c.Count > 0 {
		perCPU = c.RunQueue / float64(c.Count)
	}
	sat := []finding{check("cpu", "saturation", ThreshRunQueue, ThreshRunQueue.Metric, perCPU,
		fmt.Sprintf("run queue %.1f on %d CPUs", c.RunQueue, c.Count))}
	throttles := j.throttles()
	sat = append(sat, throttles...)
	for _, f := range j.psiChecks("cpu", false) {
		if !f.ok && len(throttles) > 0 && !throttles[0].ok {
			t := throttles[0].Cause
			if c.Utilization.Busy < ThreshCPUBusy.Warn {
				f.Detail += fmt.Sprintf("; with the CPUs %.0f%% busy this is quota throttling, not a busy host: cgroup %s was held off the CPU %.0f ms",
					c.Utilization.Busy, t.Cgroup, t.Throttle.ThrottledMS)
			} else {
				f.Detail += fmt.Sprintf("; besides the busy CPUs, cgroup %s was held off the CPU %.0f ms by its quota", t.Cgroup, t.Throttle.ThrottledMS)
			}
			f.Cause = &Cause{Kind: t.Kind, Cgroup: t.Cgroup}
		}
		sat = append(sat, f)
	}
	j.add(sat...)
	return metrics(util, sat, nil, "procfs has no CPU error counters")
}

func (j *judge) memory() UseMetrics {
	m := j.s.Memory
	util := j.add(check("memory", "utilization", ThreshMemAvailable, ThreshMemAvailable.Metric, m.AvailablePercent,
		fmt.Sprintf("memory available %.1f%% (%s of %s)", m.AvailablePercent, figures.IEC(m.AvailableBytes), figures.IEC(m.TotalBytes))))
	swapPct := 0.0
	if m.SwapTotalBytes > 0 {
		swapPct = figures.Round2(float64(m.SwapUsedBytes) / float64(m.SwapTotalBytes) * 100)
	}
	sat := []finding{check("memory", "saturation", ThreshSwapUsed, ThreshSwapUsed.Metric, swapPct,
		fmt.Sprintf("swap used %.1f%% (%s of %s), %.0f pages/s swapped out", swapPct, figures.IEC(m.SwapUsedBytes), figures.IEC(m.SwapTotalBytes), m.SwapOut))}
	limits := j.memoryLimits()
	sat = append(sat, limits...)
	for _, f := range j.psiChecks("memory", true) {
		if !f.ok && len(limits) > 0 && !limits[0].ok {
			f.Detail += fmt.Sprintf("; cgroup %s is near its memory limit", limits[0].Cause.Cgroup)
			f.Cause = &Cause{Kind: CauseMemoryLimit, Cgroup: limits[0].Cause.Cgroup}
		}
		sat = append(sat, f)
	}
	j.add(sat...)
	errs := j.add(j.oomKills())
	return metrics(util, sat, errs, "")
}

func (j *judge) disk() UseMetrics {
	var util, sat []finding
	for _, d := range j.s.IO.Devices {
		util = append(util, check("disk", "utilization", ThreshDiskUtil, ThreshDiskUtil.Metric, d.Utilization,
			fmt.Sprintf("%s %.0f%% busy (%.0f r/s, %.0f w/s, await %.1f ms)", d.Name, d.Utilization, d.ReadsPerSec, d.WritesPerSec, d.AvgWaitMS)).on(d.Name))
		sat = append(sat, check("disk", "saturation", ThreshDiskQueue, ThreshDiskQueue.Metric, d.AvgQueueSize,
			fmt.Sprintf("%s average queue %.1f requests", d.Name, d.AvgQueueSize)).on(d.Name))
	}
	if len(util) == 0 {
		util = []finding{fine("no disk has done I/O since boot")}
	}
	limits := j.ioLimits()
	sat = append(sat, limits...)
	for _, f := range j.psiChecks("io", true) {
		if !f.ok && len(limits) > 0 && !limits[0].ok {
			l := limits[0].Cause.IO
			f.Detail += fmt.Sprintf("; cgroup %s is held at its %s limit on %s", l.Cgroup, l.Limit, l.Device)
			f.Cause = &Cause{Kind: CauseIOLimit, Cgroup: l.Cgroup}
		}
		sat = append(sat, f)
	}
	if len(sat) == 0 {
		sat = []finding{fine("no disk has done I/O since boot")}
	}
	j.add(util...)
	j.add(sat...)
	return metrics(util, sat, nil, "procfs has no block error counters; see the kernel log")
}

func (j *judge) network() UseMetrics {
	var util, sat, errs []finding
	var drops, nerrs float64
	for _, n := range j.s.Network.Interfaces {
		drops += n.RxDropped + n.TxDropped
		nerrs += n.RxErrors + n.TxErrors
		if n.SpeedMbps > 0 {
			util = append(util, check("network", "utilization", ThreshNetUtil, ThreshNetUtil.Metric, n.UtilizationPercent,
				fmt.Sprintf("%s at %.0f%% of %.0f Mb/s", n.Name, n.UtilizationPercent, n.SpeedMbps)).on(n.Name))
		}
	}
	if len(util) == 0 {
		util = []finding{fine("no interface reports a link speed")}
	}
	tcp := j.s.Network.TCP
	sat = append(sat, check("network", "saturation", ThreshNetDrops, ThreshNetDrops.Metric, drops,
		fmt.Sprintf("%.1f packets/s dropped on interfaces", drops)))
	sat = append(sat, check("network", "saturation", ThreshListenDrops, ThreshListenDrops.Metric, tcp.ListenDrops,
		fmt.Sprintf("%.1f connections/s dropped at listen queues", tcp.ListenDrops)))
	errs = append(errs, check("network", "errors", ThreshNetErrors, ThreshNetErrors.Metric, nerrs,
		fmt.Sprintf("%.1f interface errors/s", nerrs)))
	if tcp.OutSegs*j.seconds() >= MinRetransSegs {
		errs = append(errs, check("network", "errors", ThreshRetransmit, ThreshRetransmit.Metric, tcp.RetransmitPercent,
			fmt.Sprintf("TCP retransmits %.2f%% of %.0f segments/s sent", tcp.RetransmitPercent, tcp.OutSegs)))
	}
	j.add(util...)
	j.add(sat...)
	j.add(errs...)
	return metrics(util, sat, errs, "")
}

// filesystem judges capacity: space and inodes used on each real mount,
// and the errors ext4 recorded. Capacity has no saturation of its own: a
// full file system fails writes (ENOSPC), which is its utilisation at 100%.
func (j *judge) filesystem() UseMetrics {
	var util, errs []finding
	for _, f := range j.s.Filesystems {
		detail := fmt.Sprintf("%s %.0f%% full (%s free of %s, %s)", f.Mount, f.UsedPercent, figures.IEC(f.AvailBytes), figures.IEC(f.TotalBytes), f.Device)
		if d := f.DeletedOpen; d != nil && d.Files > 0 {
			detail += fmt.Sprintf("; %s held by %d deleted files still open, the largest %s", figures.IEC(d.Bytes), d.Files, d.Holders[0])
		}
		util = append(util, check("filesystem", "utilization", ThreshFSUsed, ThreshFSUsed.Metric, f.UsedPercent, detail).on(f.Mount))
		util = append(util, check("filesystem", "utilization", ThreshFSInodes, ThreshFSInodes.Metric, f.InodesUsedPercent,
			fmt.Sprintf("%s %.0f%% of inodes used", f.Mount, f.InodesUsedPercent)).on(f.Mount))
		if f.Errors != nil {
			detail = fmt.Sprintf("%s (%s): %d errors recorded since the last fsck", f.Mount, f.Device, *f.Errors)
			if f.LastErrorTime != "" {
				detail += ", the last at " + f.LastErrorTime
			}
			errs = append(errs, check("filesystem", "errors", ThreshFSErrors, ThreshFSErrors.Metric, float64(*f.Errors), detail).on(f.Mount))
		}
	}
	if len(util) == 0 {
		util = []finding{fine("no file system capacity was read")}
	}
	sat := []finding{fine("capacity has no saturation: a full file system fails writes")}
	j.add(util...)
	j.add(errs...)
	return metrics(util, sat, errs, "only ext2/3/4 record errors where the kernel shows them")
}

// psiChecks judges a resource's stall over the interval, from the growth
// of its PSI total= counters, with the kernel's averages as context. CPU's
// "full" means nothing system-wide (psi.rst), so only some is judged there.
func (j *judge) psiChecks(res string, withFull bool) []finding {
	p := j.s.Pressure
	if p == nil {
		return nil
	}
	w := map[string]hostinfo.PSIWindow{"cpu": p.CPU, "memory": p.Memory, "io": p.IO}[res]
	resource := map[string]string{"cpu": "cpu", "memory": "memory", "io": "disk"}[res]
	what := map[string]string{"cpu": "a CPU", "memory": "memory", "io": "I/O"}[res]
	out := []finding{check(resource, "saturation", ThreshPSISome, fmt.Sprintf(ThreshPSISome.Metric, res), w.SomePercent,
		fmt.Sprintf("PSI %s some %.1f%% of the %.1f s interval: tasks waited for %s (avg10 %.1f%%, avg60 %.1f%%)",
			res, w.SomePercent, j.seconds(), what, w.SomeAvg10, w.SomeAvg60))}
	if withFull {
		out = append(out, check(resource, "saturation", ThreshPSIFull, fmt.Sprintf(ThreshPSIFull.Metric, res), w.FullPercent,
			fmt.Sprintf("PSI %s full %.1f%% of the %.1f s interval: every task waited for %s at once (avg10 %.1f%%, avg60 %.1f%%)",
				res, w.FullPercent, j.seconds(), what, w.FullAvg10, w.FullAvg60)))
	}
	return out
}

// metrics folds a resource's findings into its UseMetrics: each dimension
// shows its worst finding, value, status and detail together.
func metrics(util, sat, errs []finding, noErrors string) UseMetrics {
	show := func(f finding) UseValue {
		return UseValue{Metric: f.Metric, Subject: f.Subject, Value: f.Value, Status: f.Severity, Detail: f.Detail}
	}
	m := UseMetrics{Utilization: show(worst(util...)), Saturation: show(worst(sat...))}
	if len(errs) == 0 {
		m.Errors = UseCount{Status: StatusHealthy, Detail: noErrors}
		return m
	}
	f := worst(errs...)
	m.Errors = UseCount{Metric: f.Metric, Subject: f.Subject, Count: f.Value, Status: f.Severity, Detail: f.Detail}
	return m
}
