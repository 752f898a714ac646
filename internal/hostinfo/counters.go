package hostinfo

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// Counters is one reading of the host's cumulative performance counters.
// Two readings an interval apart give perf_snapshot's rates (see
// [BuildPerfSnapshot]); procfs only keeps totals since boot.
type Counters struct {
	Time  time.Time // when the reading was taken (monotonic)
	stat  procStat
	vm    map[string]uint64 // /proc/vmstat; empty when unreadable
	disks []diskStat
	net   []netDevStat
	snmp  map[string]int64 // /proc/net/snmp and /proc/net/netstat, nstat names
	// whole are the devices in /sys/block (disks, not partitions); nil when
	// /sys/block could not be read, in which case every device counts.
	whole map[string]bool
	// speed is each interface's link speed in Mb/s, where sysfs knows it.
	speed map[string]float64
	// psi is /proc/pressure/*, whose total= counters give the interval's
	// stall; empty without PSI.
	psi map[string]PSIStats
	// mono is CLOCK_MONOTONIC when vmstat was read: the kernel log's clock,
	// to find the OOM kills that vmstat's oom_kill counted.
	mono time.Duration
	// limits are the cgroups with limits, when asked for.
	limits cgroupLimits
}

// CounterOptions choose where counters are read from; nil means the host's
// own network namespace.
type CounterOptions struct {
	// NetDir is the directory holding dev, snmp, netstat and sockstat;
	// default <Proc>/net. <Proc>/<pid>/net reads the network namespace of
	// that process, such as a container's.
	NetDir string
	// Limits also reads every cgroup that has a CPU quota, a memory limit
	// or a block I/O limit, with its counters: the snapshot's cgroups.
	Limits bool
}

// ReadCounters takes one reading. /proc/stat must be readable; the other
// sources are optional and a missing one costs a warning and leaves its
// section empty.
func (h *Host) ReadCounters(opts *CounterOptions) (Counters, []string, error) {
	netDir := h.procPath("net")
	if opts != nil && opts.NetDir != "" {
		netDir = opts.NetDir
	}
	var w warnings
	c := Counters{vm: map[string]uint64{}, snmp: map[string]int64{}}
	// The reading's time is the pressure files', read first: PSI shares
	// divide the counters' growth by the interval, and on a loaded host a
	// reader preempted between its clock and the files would count tens of
	// ms of a 1 s interval as stall-free.
	c.psi, c.Time = h.readPressureAt(&w)
	b, err := os.ReadFile(h.procPath("stat"))
	if err != nil {
		return Counters{}, nil, fmt.Errorf("reading cpu counters: %w", err)
	}
	if c.stat, err = parseStat(b); err != nil {
		return Counters{}, nil, err
	}
	c.mono = monotonic()
	readInto(h.procPath("vmstat"), &w, func(b []byte) (err error) { c.vm, err = parseKeyedUints(b); return })
	readInto(h.procPath("diskstats"), &w, func(b []byte) (err error) { c.disks, err = parseDiskstats(b); return })
	readInto(filepath.Join(netDir, "dev"), &w, func(b []byte) (err error) { c.net, err = parseNetDev(b); return })
	for _, name := range []string{"snmp", "netstat"} {
		readInto(filepath.Join(netDir, name), &w, func(b []byte) error {
			m, err := parseSNMP(b)
			for k, v := range m {
				c.snmp[k] = v
			}
			return err
		})
	}
	c.whole = h.wholeDisks()
	c.speed = h.linkSpeeds(c.net)
	if opts != nil && opts.Limits {
		c.limits = h.readCgroupLimits()
		if c.limits.partial {
			w.add("the cgroups with limits were read from the first %d cgroups only (at most %d, for at most %v)", c.limits.dirs, maxLimitDirs, limitScanBudget)
		}
	}
	return c, w, nil
}

// monotonic is CLOCK_MONOTONIC, the clock of the kernel log's timestamps.
func monotonic() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

// readInto reads an optional file and parses it, turning either failure into
// a warning.
func readInto(path string, w *warnings, parse func([]byte) error) {
	b, err := os.ReadFile(path)
	if err != nil {
		w.add("%s unreadable: %v", path, err)
		return
	}
	if err := parse(b); err != nil {
		w.add("%s: %v", path, err)
	}
}

// wholeDisks lists /sys/block, which holds disks but not their partitions,
// so a disk's %util is not counted again through its partitions.
func (h *Host) wholeDisks() map[string]bool {
	entries, err := os.ReadDir(h.sysPath("block"))
	if err != nil {
		return nil
	}
	m := map[string]bool{}
	for _, e := range entries {
		m[e.Name()] = true
	}
	return m
}

// linkSpeeds reads /sys/class/net/<if>/speed (Mb/s); virtual links without a
// speed (lo, tun) read -1 or fail and are left out.
func (h *Host) linkSpeeds(net []netDevStat) map[string]float64 {
	m := map[string]float64{}
	for _, n := range net {
		v, err := readInt(h.sysPath("class", "net", n.Name, "speed"))
		if err == nil && v > 0 {
			m[n.Name] = float64(v)
		}
	}
	return m
}

// RunQueue reads the runnable and I/O-blocked task counts of /proc/stat, which
// perf_snapshot samples through its interval: one reading of an instant is
// too noisy to compare with the CPU count.
func (h *Host) RunQueue() (running, blocked int, err error) {
	b, err := os.ReadFile(h.procPath("stat"))
	if err != nil {
		return 0, 0, fmt.Errorf("reading run queue: %w", err)
	}
	st, err := parseStat(b)
	if err != nil {
		return 0, 0, err
	}
	// procs_running counts the task reading the file; sar leaves it out too.
	return max(0, st.ProcsRunning-1), st.ProcsBlocked, nil
}

// Gauges are the instantaneous values read once, at the end of the interval.
type Gauges struct {
	Load     [3]float64
	mem      memGauge
	Sockstat map[string]int64 // sockstat and sockstat6 ("TCP.inuse", "TCP6.inuse")
	// Filesystems, when the caller read them (Host.Filesystems), are
	// passed through to the snapshot.
	Filesystems []FilesystemUse
	// Listeners, when the caller read them (Host.TCPListeners), give
	// perf_net_health its accept queues.
	Listeners []Listener
}

type memGauge struct {
	Total, Available, Free, Buffers, Cached, SwapTotal, SwapFree uint64
}

// ReadGauges reads load, memory and socket counts. Memory must be
// readable; the rest are optional.
func (h *Host) ReadGauges(opts *CounterOptions) (Gauges, []string, error) {
	netDir := h.procPath("net")
	if opts != nil && opts.NetDir != "" {
		netDir = opts.NetDir
	}
	var w warnings
	g := Gauges{Sockstat: map[string]int64{}}
	mi, err := h.meminfo()
	if err != nil {
		return Gauges{}, nil, err
	}
	g.mem = memGauge{Total: deref(mi.MemTotalBytes), Free: deref(mi.MemFreeBytes), Buffers: deref(mi.BuffersBytes),
		Cached: deref(mi.CachedBytes), SwapTotal: deref(mi.SwapTotalBytes), SwapFree: deref(mi.SwapFreeBytes)}
	if mi.MemAvailableBytes != nil {
		g.mem.Available = *mi.MemAvailableBytes
	} else {
		g.mem.Available = g.mem.Free + g.mem.Buffers + g.mem.Cached
		w.add("no MemAvailable in meminfo: available memory estimated as free + buffers + cached")
	}
	readInto(h.procPath("loadavg"), &w, func(b []byte) error {
		la, err := parseLoadavg(b)
		g.Load = la.Load
		return err
	})
	for _, name := range []string{"sockstat", "sockstat6"} {
		b, err := os.ReadFile(filepath.Join(netDir, name))
		if err != nil {
			continue // no IPv6
		}
		m, err := parseSockstat(b)
		if err != nil {
			w.add("%s: %v", name, err)
		}
		for k, v := range m { // sockstat6 names its protocols TCP6, UDP6...
			g.Sockstat[k] = v
		}
	}
	return g, w, nil
}
