package health

import (
	"fmt"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/num"
)

// AnalyzeUSE applies the USE method with spec 000 appendix B's thresholds to
// a snapshot: utilisation, saturation and errors of CPU, memory, disk and
// network, PSI included where the kernel has it.
func AnalyzeUSE(s hostinfo.PerfSnapshot) UseCheck {
	var all []finding
	var r UseResources
	add := func(fs ...finding) []finding { all = append(all, fs...); return fs }

	cpu := s.CPU
	util := add(check("cpu", "utilization", ThreshCPUBusy, ThreshCPUBusy.Metric, cpu.Utilization.Busy,
		fmt.Sprintf("CPU busy %.0f%% of %d CPUs (user %.0f%%, system %.0f%%, steal %.0f%%)",
			cpu.Utilization.Busy, cpu.Count, cpu.Utilization.User+cpu.Utilization.Nice, cpu.Utilization.System, cpu.Utilization.Steal)))
	perCPU := 0.0
	if cpu.Count > 0 {
		perCPU = cpu.RunQueue / float64(cpu.Count)
	}
	sat := add(check("cpu", "saturation", ThreshRunQueue, ThreshRunQueue.Metric, perCPU,
		fmt.Sprintf("run queue %.1f on %d CPUs", cpu.RunQueue, cpu.Count)))
	sat = append(sat, add(psiChecks("cpu", s.Pressure, false)...)...)
	r.CPU = metrics(util, sat, cpu.Utilization.Busy, cpu.RunQueue, nil, 0, "procfs has no CPU error counters")

	m := s.Memory
	util = add(check("memory", "utilization", ThreshMemAvailable, ThreshMemAvailable.Metric, m.AvailablePercent,
		fmt.Sprintf("memory available %.1f%% (%s of %s)", m.AvailablePercent, num.IEC(m.AvailableBytes), num.IEC(m.TotalBytes))))
	swapPct := 0.0
	if m.SwapTotalBytes > 0 {
		swapPct = float64(m.SwapUsedBytes) / float64(m.SwapTotalBytes) * 100
	}
	sat = add(check("memory", "saturation", ThreshSwapUsed, ThreshSwapUsed.Metric, swapPct,
		fmt.Sprintf("swap used %.1f%% (%s of %s), %.0f pages/s swapped out", swapPct, num.IEC(m.SwapUsedBytes), num.IEC(m.SwapTotalBytes), m.SwapOut)))
	sat = append(sat, add(psiChecks("memory", s.Pressure, true)...)...)
	errs := add(check("memory", "errors", ThreshOOMKills, ThreshOOMKills.Metric, float64(m.OOMKills),
		fmt.Sprintf("%d OOM kills during the interval (%d since boot)", m.OOMKills, m.OOMKillsBoot)))
	r.Memory = metrics(util, sat, 100-m.AvailablePercent, swapPct, errs, float64(m.OOMKills), "")

	util, sat = nil, nil
	var maxUtil, maxQueue float64
	for _, d := range s.IO.Devices {
		util = append(util, check("disk", "utilization", ThreshDiskUtil, ThreshDiskUtil.Metric, d.Utilization,
			fmt.Sprintf("%s %.0f%% busy (%.0f r/s, %.0f w/s, await %.1f ms)", d.Name, d.Utilization, d.ReadsPerSec, d.WritesPerSec, d.AvgWaitMS)))
		sat = append(sat, check("disk", "saturation", ThreshDiskQueue, ThreshDiskQueue.Metric, d.AvgQueueSize,
			fmt.Sprintf("%s average queue %.1f requests", d.Name, d.AvgQueueSize)))
		maxUtil, maxQueue = max(maxUtil, d.Utilization), max(maxQueue, d.AvgQueueSize)
	}
	if len(util) == 0 {
		util = []finding{{Suspicion: Suspicion{Severity: StatusOK, Detail: "no disk has done I/O since boot"}, ok: true}}
		sat = util
	}
	sat = append(sat, psiChecks("io", s.Pressure, true)...)
	add(util...)
	add(sat...)
	r.Disk = metrics(util, sat, maxUtil, maxQueue, nil, 0, "procfs has no block error counters; see the kernel log")

	util, sat, errs = nil, nil, nil
	var maxNet, drops, nerrs float64
	for _, n := range s.Network.Interfaces {
		drops += n.RxDropped + n.TxDropped
		nerrs += n.RxErrors + n.TxErrors
		if n.SpeedMbps > 0 {
			maxNet = max(maxNet, n.UtilizationPercent)
			util = append(util, check("network", "utilization", ThreshNetUtil, ThreshNetUtil.Metric, n.UtilizationPercent,
				fmt.Sprintf("%s at %.0f%% of %.0f Mb/s", n.Name, n.UtilizationPercent, n.SpeedMbps)))
		}
	}
	if len(util) == 0 {
		util = []finding{{Suspicion: Suspicion{Severity: StatusOK, Detail: "no interface reports a link speed"}, ok: true}}
	}
	sat = append(sat, check("network", "saturation", ThreshNetDrops, ThreshNetDrops.Metric, drops,
		fmt.Sprintf("%.1f packets/s dropped on interfaces", drops)))
	sat = append(sat, check("network", "saturation", ThreshListenDrops, ThreshListenDrops.Metric, s.Network.TCP.ListenDrops,
		fmt.Sprintf("%.1f connections/s dropped at listen queues", s.Network.TCP.ListenDrops)))
	errs = append(errs, check("network", "errors", ThreshNetErrors, ThreshNetErrors.Metric, nerrs,
		fmt.Sprintf("%.1f interface errors/s", nerrs)))
	tcp := s.Network.TCP
	segs := tcp.OutSegs * float64(s.IntervalMS) / 1000
	if segs >= MinRetransSegs {
		errs = append(errs, check("network", "errors", ThreshRetransmit, ThreshRetransmit.Metric, tcp.RetransmitPercent,
			fmt.Sprintf("TCP retransmits %.2f%% of %.0f segments/s sent", tcp.RetransmitPercent, tcp.OutSegs)))
	}
	add(util...)
	add(sat...)
	add(errs...)
	r.Network = metrics(util, sat, maxNet, drops, errs, nerrs+tcp.Retransmits, "")
	r.Filesystem = filesystemUSE(s.Filesystems, add)

	return UseCheck{Summary: summarize(all), Resources: r}
}

// filesystemUSE judges capacity: space and inodes used on each real mount,
// and the errors ext4 recorded. Capacity has no saturation of its own: a
// full file system fails writes (ENOSPC), which is its utilisation at 100%.
func filesystemUSE(fss []hostinfo.FilesystemUse, add func(...finding) []finding) UseMetrics {
	var util, errs []finding
	var maxUsed, nerrs float64
	for _, f := range fss {
		detail := fmt.Sprintf("%s %.0f%% full (%s free of %s, %s)", f.Mount, f.UsedPercent, num.IEC(f.AvailBytes), num.IEC(f.TotalBytes), f.Device)
		if d := f.DeletedOpen; d != nil && d.Files > 0 {
			detail += fmt.Sprintf("; %s held by %d deleted files still open, the largest %s", num.IEC(d.Bytes), d.Files, d.Holders[0])
		}
		util = append(util, check("filesystem", "utilization", ThreshFSUsed, ThreshFSUsed.Metric, f.UsedPercent, detail))
		util = append(util, check("filesystem", "utilization", ThreshFSInodes, ThreshFSInodes.Metric, f.InodesUsedPercent,
			fmt.Sprintf("%s %.0f%% of inodes used", f.Mount, f.InodesUsedPercent)))
		maxUsed = max(maxUsed, f.UsedPercent, f.InodesUsedPercent)
		if f.Errors != nil {
			nerrs += float64(*f.Errors)
			detail = fmt.Sprintf("%s (%s): %d errors recorded since the last fsck", f.Mount, f.Device, *f.Errors)
			if f.LastErrorTime != "" {
				detail += ", the last at " + f.LastErrorTime
			}
			errs = append(errs, check("filesystem", "errors", ThreshFSErrors, ThreshFSErrors.Metric, float64(*f.Errors), detail))
		}
	}
	if len(util) == 0 {
		util = []finding{{Suspicion: Suspicion{Severity: StatusOK, Detail: "no file system capacity was read"}, ok: true}}
	}
	sat := []finding{{Suspicion: Suspicion{Severity: StatusOK, Detail: "capacity has no saturation: a full file system fails writes"}, ok: true}}
	add(util...)
	add(errs...)
	return metrics(util, sat, maxUsed, 0, errs, nerrs, "only ext2/3/4 record errors where the kernel shows them")
}

// psiChecks judges a resource's PSI avg10 lines; CPU's "full" means nothing
// system-wide (psi.rst), so only some is judged there.
func psiChecks(res string, p *hostinfo.Pressure, withFull bool) []finding {
	if p == nil {
		return nil
	}
	var a hostinfo.PSIAvgs
	switch res {
	case "cpu":
		a = p.CPU
	case "memory":
		a = p.Memory
	case "io":
		a = p.IO
	}
	resource := map[string]string{"cpu": "cpu", "memory": "memory", "io": "disk"}[res]
	out := []finding{check(resource, "saturation", ThreshPSISome, fmt.Sprintf(ThreshPSISome.Metric, res), a.SomeAvg10,
		fmt.Sprintf("PSI %s some avg10 %.1f%%: tasks stalled waiting for %s", res, a.SomeAvg10, res))}
	if withFull {
		out = append(out, check(resource, "saturation", ThreshPSIFull, fmt.Sprintf(ThreshPSIFull.Metric, res), a.FullAvg10,
			fmt.Sprintf("PSI %s full avg10 %.1f%%: all tasks stalled on %s", res, a.FullAvg10, res)))
	}
	return out
}

// metrics folds a resource's findings into its UseMetrics.
func metrics(util, sat []finding, utilV, satV float64, errs []finding, errCount float64, noErrors string) UseMetrics {
	var m UseMetrics
	m.Utilization.Value = num.Round2(utilV)
	m.Utilization.Status, m.Utilization.Detail = worst(util...)
	m.Saturation.Value = num.Round2(satV)
	m.Saturation.Status, m.Saturation.Detail = worst(sat...)
	m.Errors.Count = num.Round2(errCount)
	if len(errs) == 0 {
		m.Errors.Status, m.Errors.Detail = StatusOK, noErrors
	} else {
		m.Errors.Status, m.Errors.Detail = worst(errs...)
	}
	return m
}
