package hostinfo

import (
	"fmt"
	"strconv"
	"strings"
)

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
