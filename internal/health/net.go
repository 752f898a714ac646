package health

import (
	"fmt"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// NetCheck is perf_net_health's answer: the reading and its verdict.
type NetCheck struct {
	hostinfo.NetHealth
	Summary UseSummary `json:"summary"`
}

// AnalyzeNet judges perf_net_health's reading: interface drops and errors,
// TCP retransmits, listen drops and accept queues.
func AnalyzeNet(nh *hostinfo.NetHealth) UseSummary {
	var fs []finding
	for _, n := range nh.Interfaces {
		fs = append(fs,
			check("network", "saturation", ThreshNetDrops, ThreshNetDrops.Metric, n.RxDroppedPerS+n.TxDroppedPerS,
				fmt.Sprintf("%s drops %.1f packets/s (rx %.1f, tx %.1f)", n.Name, n.RxDroppedPerS+n.TxDroppedPerS, n.RxDroppedPerS, n.TxDroppedPerS)),
			check("network", "errors", ThreshNetErrors, ThreshNetErrors.Metric, n.RxErrorsPerS+n.TxErrorsPerS,
				fmt.Sprintf("%s errors %.1f/s (rx %.1f, tx %.1f)", n.Name, n.RxErrorsPerS+n.TxErrorsPerS, n.RxErrorsPerS, n.TxErrorsPerS)))
	}
	if t := nh.TCP; t != nil {
		if t.OutSegsPerS*float64(nh.IntervalMS)/1000 >= MinRetransSegs {
			fs = append(fs, check("network", "errors", ThreshRetransmit, ThreshRetransmit.Metric, t.RetransmitPercent,
				fmt.Sprintf("TCP retransmits %.2f%% of %.0f segments/s sent", t.RetransmitPercent, t.OutSegsPerS)))
		}
		fs = append(fs, check("network", "saturation", ThreshListenDrops, ThreshListenDrops.Metric, t.ListenDropsPerS,
			fmt.Sprintf("%.1f connections/s dropped at listen queues (%.1f/s overflows)", t.ListenDropsPerS, t.ListenOverflowsPerS)))
	}
	for _, l := range nh.ListenQueues {
		holder := "a process not found"
		if l.PID != 0 {
			holder = fmt.Sprintf("pid %d (%s)", l.PID, l.Comm)
		}
		fs = append(fs, check("network", "saturation", ThreshListenQueue, ThreshListenQueue.Metric, hostinfo.QueueFill(l),
			fmt.Sprintf("%s accept queue %d of backlog %d, held by %s: connections wait to be accepted", l.Addr, l.AcceptQueue, l.Backlog, holder)))
	}
	return summarize(fs)
}
