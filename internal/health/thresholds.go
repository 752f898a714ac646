package health

import "math"

// Threshold is one row of spec 000 appendix B.
type Threshold struct {
	Metric     string
	Warn, Crit float64
	Below      bool // bad when the value is below (available memory)
}

// The thresholds of spec 000 appendix B. Run queue thresholds are multiples
// of the CPU count. Network utilisation has no row there; it borrows the CPU
// row. OOM kills and listen drops have none either: any is an error.
var (
	ThreshCPUBusy      = Threshold{Metric: "cpu_busy_percent", Warn: 70, Crit: 90}
	ThreshRunQueue     = Threshold{Metric: "run_queue_per_cpu", Warn: 1, Crit: 2}
	ThreshMemAvailable = Threshold{Metric: "memory_available_percent", Warn: 20, Crit: 10, Below: true}
	ThreshSwapUsed     = Threshold{Metric: "swap_used_percent", Warn: 0, Crit: 50}
	ThreshOOMKills     = Threshold{Metric: "oom_kills", Warn: 0, Crit: 0}
	ThreshDiskUtil     = Threshold{Metric: "disk_utilization_percent", Warn: 60, Crit: 80}
	ThreshDiskQueue    = Threshold{Metric: "disk_avg_queue_size", Warn: 2, Crit: 8}
	ThreshNetUtil      = Threshold{Metric: "network_utilization_percent", Warn: 70, Crit: 90}
	ThreshNetDrops     = Threshold{Metric: "network_drops_per_sec", Warn: 0, Crit: 100}
	ThreshNetErrors    = Threshold{Metric: "network_errors_per_sec", Warn: 0, Crit: 100}
	ThreshListenDrops  = Threshold{Metric: "tcp_listen_drops_per_sec", Warn: 0, Crit: 100}
	ThreshRetransmit   = Threshold{Metric: "tcp_retransmit_percent", Warn: 1, Crit: 5}
	// PSI is judged as the share of the sampled interval spent stalled, from
	// the growth of the total= counters; the kernel's avg10, which still
	// remembers a burst that ended, is context only. These were avg10's
	// thresholds and keep their meaning: a share of wall time.
	ThreshPSISome = Threshold{Metric: "psi_%s_some_percent", Warn: 10, Crit: 25}
	ThreshPSIFull = Threshold{Metric: "psi_%s_full_percent", Warn: 5, Crit: 15}
	// An accept queue more than half full means the program accepts slower
	// than connections arrive; a full one refuses them (listen overflows).
	ThreshListenQueue = Threshold{Metric: "listen_queue_fill_percent", Warn: 50, Crit: 90}
	// File system capacity has no row in appendix B. A full file system
	// fails writes outright, so the bar is df's usual alarm levels; errors
	// ext4 recorded since the last fsck are a warning (they may be old).
	ThreshFSUsed   = Threshold{Metric: "filesystem_used_percent", Warn: 85, Crit: 95}
	ThreshFSInodes = Threshold{Metric: "filesystem_inodes_used_percent", Warn: 85, Crit: 95}
	ThreshFSErrors = Threshold{Metric: "filesystem_errors", Warn: 0, Crit: math.Inf(1)}
)

// MinRetransSegs is the fewest segments sent in the interval for which a
// retransmit percentage is judged: 1 lost of 20 is not a 5% problem.
const MinRetransSegs = 100

// Cgroup thresholds. Appendix B has none for throttling or limits; these
// mirror its shape: memory near the limit like available memory below
// 20%/10%, and throttling in more than 5%/25% of periods. A block I/O rate
// at 80% of its limit is held back some of the time, at 95% nearly always.
var (
	ThreshThrottled = Threshold{Metric: "cpu_throttled_percent", Warn: 5, Crit: 25}
	ThreshMemLimit  = Threshold{Metric: "memory_limit_used_percent", Warn: 80, Crit: 90}
	ThreshCgroupOOM = Threshold{Metric: "oom_kills", Warn: 0, Crit: 0}
	ThreshPIDsLimit = Threshold{Metric: "pids_limit_used_percent", Warn: 80, Crit: 90}
	ThreshIOLimit   = Threshold{Metric: "io_limit_used_percent", Warn: 80, Crit: 95}
)
