package hostinfo

import (
	"fmt"
	"strconv"
	"strings"
)

// parseUintStr parses a decimal counter such as cpuacct.usage.
func parseUintStr(s string) (uint64, error) { return strconv.ParseUint(s, 10, 64) }

// DeviceIOLimits are one device's block I/O limits in a cgroup; 0 is none.
type DeviceIOLimits struct {
	ReadBPS   uint64 `json:"read_bps,omitempty"`
	WriteBPS  uint64 `json:"write_bps,omitempty"`
	ReadIOPS  uint64 `json:"read_iops,omitempty"`
	WriteIOPS uint64 `json:"write_iops,omitempty"`
}

func (l DeviceIOLimits) any() bool { return l.ReadBPS+l.WriteBPS+l.ReadIOPS+l.WriteIOPS > 0 }

// parseBlkioLimitLines parses a cgroup v1 blkio.throttle.*_device file: one
// "major:minor value" line per limited device, empty when none is
// (Documentation/admin-guide/cgroup-v1/blkio-controller.rst).
func parseBlkioLimitLines(b []byte) (map[string]uint64, error) {
	out := map[string]uint64{}
	for n, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 || !isMajMin(f[0]) {
			return nil, fmt.Errorf("throttle line %d %q: want major:minor and a limit", n+1, line)
		}
		v, err := strconv.ParseUint(f[1], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("throttle line %d %q: %w", n+1, line, err)
		}
		out[f[0]] = v
	}
	return out, nil
}

// parseIOMaxLines parses cgroup v2 io.max: "8:0 rbps=max wbps=1048576 riops=max
// wiops=80" per device with a limit (Documentation/admin-guide/cgroup-v2.rst,
// "IO Interface Files"); "max" is no limit.
func parseIOMaxLines(b []byte) (map[string]DeviceIOLimits, error) {
	out := map[string]DeviceIOLimits{}
	for n, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if !isMajMin(f[0]) {
			return nil, fmt.Errorf("io.max line %d: device %q is not major:minor", n+1, f[0])
		}
		var l DeviceIOLimits
		for _, kv := range f[1:] {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return nil, fmt.Errorf("io.max line %d: %q is not key=value", n+1, kv)
			}
			var x uint64
			if v != "max" {
				var err error
				if x, err = strconv.ParseUint(v, 10, 64); err != nil {
					return nil, fmt.Errorf("io.max line %d: %q is not a number or max", n+1, kv)
				}
			}
			switch k {
			case "rbps":
				l.ReadBPS = x
			case "wbps":
				l.WriteBPS = x
			case "riops":
				l.ReadIOPS = x
			case "wiops":
				l.WriteIOPS = x
			}
		}
		out[f[0]] = l
	}
	return out, nil
}

// isMajMin reports whether s is "major:minor".
func isMajMin(s string) bool {
	maj, min, ok := strings.Cut(s, ":")
	_, err1 := strconv.ParseUint(maj, 10, 32)
	_, err2 := strconv.ParseUint(min, 10, 32)
	return ok && err1 == nil && err2 == nil
}
