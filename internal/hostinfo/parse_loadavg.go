package hostinfo

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// loadAvg is /proc/loadavg: the load averages and the task counts procfs drops.
type loadAvg struct {
	Load     [3]float64
	Runnable int // tasks currently runnable (running or on a run queue)
	Total    int // tasks (threads) that exist
}

// parseLoadavg parses /proc/loadavg, "0.53 0.40 0.20 4/100 12578", as described in
// proc(5). procfs.LoadAvg stops at the three averages; the run queue is what an
// agent compares with the core count.
func parseLoadavg(b []byte) (loadAvg, error) {
	fields := strings.Fields(string(b))
	if len(fields) < 4 {
		return loadAvg{}, fmt.Errorf("parsing /proc/loadavg %q: %d fields, want at least 4", b, len(fields))
	}
	var la loadAvg
	for i := range la.Load {
		v, err := strconv.ParseFloat(fields[i], 64)
		if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return loadAvg{}, fmt.Errorf("parsing /proc/loadavg load %q: not a non-negative number", fields[i])
		}
		la.Load[i] = v
	}
	run, total, ok := strings.Cut(fields[3], "/")
	if !ok {
		return loadAvg{}, fmt.Errorf("parsing /proc/loadavg tasks %q: want runnable/total", fields[3])
	}
	var err error
	if la.Runnable, err = strconv.Atoi(run); err != nil {
		return loadAvg{}, fmt.Errorf("parsing /proc/loadavg runnable tasks: %w", err)
	}
	if la.Total, err = strconv.Atoi(total); err != nil {
		return loadAvg{}, fmt.Errorf("parsing /proc/loadavg total tasks: %w", err)
	}
	return la, nil
}

// parseUptime parses /proc/uptime, "1405.29 2558.63", returning the first field:
// seconds since boot (proc(5)).
func parseUptime(b []byte) (float64, error) {
	fields := strings.Fields(string(b))
	if len(fields) == 0 {
		return 0, fmt.Errorf("parsing /proc/uptime: empty")
	}
	v, err := strconv.ParseFloat(fields[0], 64)
	if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("parsing /proc/uptime %q: not a non-negative number", fields[0])
	}
	return v, nil
}
