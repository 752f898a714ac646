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

// procStat is what we need of /proc/stat.
type procStat struct {
	CPU      cpuTimes // the aggregate "cpu" line
	CPUs     int      // number of "cpuN" lines: CPUs online when the file was read
	BootTime int64    // "btime": seconds since the epoch
}

// parseStat parses /proc/stat as described in the kernel's
// Documentation/filesystems/proc.rst, "Miscellaneous kernel statistics in
// /proc/stat". We parse it ourselves rather than with procfs because procfs
// converts ticks to float seconds, and a percentage over 100 ms needs the exact
// integer deltas. Columns a kernel does not print (older kernels have fewer) are 0.
func parseStat(b []byte) (procStat, error) {
	var st procStat
	seenCPU := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024) // the "intr" line is long
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
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
			if _, err := strconv.Atoi(name[3:]); err == nil {
				st.CPUs++
			}
		case name == "btime" && len(fields) > 1:
			v, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return procStat{}, fmt.Errorf("parsing /proc/stat btime %q: %w", fields[1], err)
			}
			st.BootTime = v
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
