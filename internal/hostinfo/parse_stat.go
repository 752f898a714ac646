package hostinfo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// cpuTimes are the cumulative jiffies of one "cpu" line of /proc/stat. Guest and
// guest_nice are left out: the kernel already counts them in user and nice.
type cpuTimes struct {
	User, Nice, System, Idle, Iowait, IRQ, SoftIRQ, Steal uint64
}

// total is every jiffy the CPU(s) spent, busy or not.
func (c cpuTimes) total() uint64 {
	return c.User + c.Nice + c.System + c.Idle + c.Iowait + c.IRQ + c.SoftIRQ + c.Steal
}

// procStat is what hostmcp reads of /proc/stat (Documentation/filesystems/proc.rst,
// "Miscellaneous kernel statistics in /proc/stat"): sys_snapshot's CPU times,
// the boot time, and perf_snapshot's per-CPU times and scheduler counters.
type procStat struct {
	CPU          cpuTimes      // the aggregate "cpu" line
	PerCPU       []perCPUTimes // one per "cpuN" line: the CPUs online when the file was read
	BootTime     int64         // "btime": seconds since the epoch
	Ctxt         uint64        // context switches since boot
	Intr         uint64        // interrupts serviced since boot (the first "intr" column)
	ProcsRunning int           // runnable tasks right now
	ProcsBlocked int           // tasks blocked on I/O right now
}

type perCPUTimes struct {
	ID    int
	Times cpuTimes
}

// parseStat parses /proc/stat, the one parser of it. We parse it ourselves
// rather than with procfs because procfs converts ticks to float seconds,
// and a percentage over 100 ms needs the exact integer deltas. Columns a
// kernel does not print (older kernels have fewer) are 0.
func parseStat(b []byte) (procStat, error) {
	var st procStat
	seenCPU := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024) // "intr" has a column per IRQ
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		switch name := fields[0]; {
		case name == "cpu":
			t, err := parseCPUTimes(fields[1:])
			if err != nil {
				return procStat{}, fmt.Errorf("parsing /proc/stat cpu line: %w", err)
			}
			st.CPU, seenCPU = t, true
		case strings.HasPrefix(name, "cpu"):
			id, err := strconv.Atoi(name[3:])
			if err != nil || id < 0 {
				continue
			}
			t, err := parseCPUTimes(fields[1:])
			if err != nil {
				return procStat{}, fmt.Errorf("parsing /proc/stat %s line: %w", name, err)
			}
			st.PerCPU = append(st.PerCPU, perCPUTimes{ID: id, Times: t})
		case name == "btime":
			v, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return procStat{}, fmt.Errorf("parsing /proc/stat btime %q: %w", fields[1], err)
			}
			st.BootTime = v
		case name == "ctxt" || name == "intr":
			v, err := strconv.ParseUint(fields[1], 10, 64)
			if err != nil {
				return procStat{}, fmt.Errorf("parsing /proc/stat %s %q: %w", name, fields[1], err)
			}
			if name == "ctxt" {
				st.Ctxt = v
			} else {
				st.Intr = v
			}
		case name == "procs_running" || name == "procs_blocked":
			v, err := strconv.Atoi(fields[1])
			if err != nil || v < 0 {
				return procStat{}, fmt.Errorf("parsing /proc/stat %s %q: not a count", name, fields[1])
			}
			if name == "procs_running" {
				st.ProcsRunning = v
			} else {
				st.ProcsBlocked = v
			}
		}
	}
	if err := sc.Err(); err != nil {
		return procStat{}, fmt.Errorf("scanning /proc/stat: %w", err)
	}
	if !seenCPU {
		return procStat{}, errors.New("parsing /proc/stat: no aggregate cpu line")
	}
	return st, nil
}

func parseCPUTimes(fields []string) (cpuTimes, error) {
	if len(fields) < 4 {
		return cpuTimes{}, fmt.Errorf("%d columns, want at least 4", len(fields))
	}
	var v [8]uint64
	for i := 0; i < len(v) && i < len(fields); i++ {
		n, err := strconv.ParseUint(fields[i], 10, 64)
		if err != nil {
			return cpuTimes{}, fmt.Errorf("column %d: %w", i+1, err)
		}
		v[i] = n
	}
	return cpuTimes{User: v[0], Nice: v[1], System: v[2], Idle: v[3], Iowait: v[4],
		IRQ: v[5], SoftIRQ: v[6], Steal: v[7]}, nil
}

// cpuPercent is the busy share of the jiffies that passed between two samples,
// where busy is everything but idle and iowait (iowait is idle time with I/O
// outstanding, as top and mpstat count it). Counters that went backwards, which
// iowait can do, give 0 rather than a nonsense value.
func cpuPercent(before, after cpuTimes) float64 {
	t0, t1 := before.total(), after.total()
	if t1 <= t0 {
		return 0
	}
	dt := float64(t1 - t0)
	idle := float64(after.Idle+after.Iowait) - float64(before.Idle+before.Iowait)
	busy := dt - idle
	pct := busy / dt * 100
	return max(0, min(100, pct))
}
