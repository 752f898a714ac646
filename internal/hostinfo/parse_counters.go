package hostinfo

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// statCounters is what perf_snapshot needs of /proc/stat beyond parseStat:
// per-CPU times and the scheduler counters (Documentation/filesystems/proc.rst,
// "Miscellaneous kernel statistics in /proc/stat").
type statCounters struct {
	CPU          cpuTimes
	PerCPU       []perCPUTimes
	Ctxt         uint64 // context switches since boot
	Intr         uint64 // interrupts serviced since boot (the first "intr" column)
	ProcsRunning int    // runnable tasks right now
	ProcsBlocked int    // tasks blocked on I/O right now
}

type perCPUTimes struct {
	ID    int
	Times cpuTimes
}

// parseStatCounters parses /proc/stat for the rates of perf_snapshot.
func parseStatCounters(b []byte) (statCounters, error) {
	var st statCounters
	seenCPU := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024) // "intr" has a column per IRQ
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		name := fields[0]
		switch {
		case name == "cpu":
			t, err := parseCPUTimes(fields[1:])
			if err != nil {
				return statCounters{}, fmt.Errorf("parsing /proc/stat cpu line: %w", err)
			}
			st.CPU, seenCPU = t, true
		case strings.HasPrefix(name, "cpu"):
			id, err := strconv.Atoi(name[3:])
			if err != nil || id < 0 {
				continue
			}
			t, err := parseCPUTimes(fields[1:])
			if err != nil {
				return statCounters{}, fmt.Errorf("parsing /proc/stat %s line: %w", name, err)
			}
			st.PerCPU = append(st.PerCPU, perCPUTimes{ID: id, Times: t})
		case name == "ctxt" || name == "intr":
			v, err := strconv.ParseUint(fields[1], 10, 64)
			if err != nil {
				return statCounters{}, fmt.Errorf("parsing /proc/stat %s %q: %w", name, fields[1], err)
			}
			if name == "ctxt" {
				st.Ctxt = v
			} else {
				st.Intr = v
			}
		case name == "procs_running" || name == "procs_blocked":
			v, err := strconv.Atoi(fields[1])
			if err != nil || v < 0 {
				return statCounters{}, fmt.Errorf("parsing /proc/stat %s %q: not a count", name, fields[1])
			}
			if name == "procs_running" {
				st.ProcsRunning = v
			} else {
				st.ProcsBlocked = v
			}
		}
	}
	if err := sc.Err(); err != nil {
		return statCounters{}, fmt.Errorf("scanning /proc/stat: %w", err)
	}
	if !seenCPU {
		return statCounters{}, errors.New("parsing /proc/stat: no aggregate cpu line")
	}
	return st, nil
}

// parseKeyedUints parses the "name value" files the kernel uses for counters:
// /proc/vmstat, and the cgroup files cpu.stat, memory.stat, memory.events
// (Documentation/admin-guide/cgroup-v2.rst, "Flat keyed"). Negative values,
// which some memory.stat fields briefly show on v1, become 0; a line that is
// not a name and an integer is an error.
func parseKeyedUints(b []byte) (map[string]uint64, error) {
	out := map[string]uint64{}
	for n, line := range strings.Split(string(b), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			return nil, fmt.Errorf("line %d %q: want a name and a value", n+1, line)
		}
		if strings.HasPrefix(fields[1], "-") {
			if _, err := strconv.ParseInt(fields[1], 10, 64); err != nil {
				return nil, fmt.Errorf("line %d %q: %w", n+1, line, err)
			}
			out[fields[0]] = 0
			continue
		}
		v, err := strconv.ParseUint(fields[1], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("line %d %q: %w", n+1, line, err)
		}
		out[fields[0]] = v
	}
	return out, nil
}
