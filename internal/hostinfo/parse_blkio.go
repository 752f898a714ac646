package hostinfo

import (
	"fmt"
	"strconv"
	"strings"
)

// ioKinds are the four throttle limits a cgroup can put on a device, in
// io.max's order, with their io.max key and their v1 blkio file
// (Documentation/admin-guide/cgroup-v2.rst "IO Interface Files",
// cgroup-v1/blkio-controller.rst "Throttling/Upper limit policy").
var ioKinds = [...]struct{ name, v2Key, v1File string }{
	{"read_bps", "rbps", "blkio.throttle.read_bps_device"},
	{"write_bps", "wbps", "blkio.throttle.write_bps_device"},
	{"read_iops", "riops", "blkio.throttle.read_iops_device"},
	{"write_iops", "wiops", "blkio.throttle.write_iops_device"},
}

// ioLimit is one limit on one device: kind indexes ioKinds; value is bytes
// or I/Os per second.
type ioLimit struct {
	Dev   string // "major:minor"
	Kind  int
	Value uint64
}

// isDevNum reports whether s is a device number as cgroup files print it,
// "major:minor" in decimal.
func isDevNum(s string) bool {
	maj, min, ok := strings.Cut(s, ":")
	_, err1 := strconv.ParseUint(maj, 10, 32)
	_, err2 := strconv.ParseUint(min, 10, 32)
	return ok && err1 == nil && err2 == nil
}

// parseIOMax parses cgroup v2 io.max, one line per device that has a limit:
// "8:16 rbps=2097152 wbps=max riops=max wiops=120"; max is no limit.
func parseIOMax(b []byte) ([]ioLimit, error) {
	var out []ioLimit
	for n, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if !isDevNum(f[0]) {
			return nil, fmt.Errorf("io.max line %d: device %q is not major:minor", n+1, f[0])
		}
		for _, kv := range f[1:] {
			k, v, ok := strings.Cut(kv, "=")
			kind := -1
			for i, x := range ioKinds {
				if x.v2Key == k {
					kind = i
				}
			}
			if !ok || kind < 0 {
				return nil, fmt.Errorf("io.max line %d: %q is not rbps, wbps, riops or wiops=value", n+1, kv)
			}
			if v == "max" {
				continue
			}
			x, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("io.max line %d: %s=%q is not a number or max", n+1, k, v)
			}
			out = append(out, ioLimit{Dev: f[0], Kind: kind, Value: x})
		}
	}
	return out, nil
}

// parseThrottleDevice parses one of v1's blkio.throttle.*_device files, the
// limit of kind (an ioKinds index): one "8:0 80" line per device with a
// rule. The kernel drops a rule set to 0, so every line is a limit.
func parseThrottleDevice(b []byte, kind int) ([]ioLimit, error) {
	var out []ioLimit
	for n, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 || !isDevNum(f[0]) {
			return nil, fmt.Errorf("%s line %d %q: want major:minor limit", ioKinds[kind].v1File, n+1, line)
		}
		x, err := strconv.ParseUint(f[1], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: limit %q is not a number", ioKinds[kind].v1File, n+1, f[1])
		}
		out = append(out, ioLimit{Dev: f[0], Kind: kind, Value: x})
	}
	return out, nil
}

// ioStat is one device's cumulative I/O in a cgroup.
type ioStat struct {
	Dev                        string // "major:minor"
	RBytes, WBytes, RIOs, WIOs uint64
}

// parseIOStat parses cgroup v2 io.stat: "8:0 rbytes=1 wbytes=2 rios=3 wios=4
// dbytes=0 dios=0" per device. iocost and io.latency append keys of their
// own, some not counts (cost.vrate=100.00, depth=max): only the four kept
// here must be numbers.
func parseIOStat(b []byte) ([]ioStat, error) {
	var out []ioStat
	for n, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if !isDevNum(f[0]) {
			return nil, fmt.Errorf("io.stat line %d: device %q is not major:minor", n+1, f[0])
		}
		st := ioStat{Dev: f[0]}
		for _, kv := range f[1:] {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return nil, fmt.Errorf("io.stat line %d: %q is not key=value", n+1, kv)
			}
			var dst *uint64
			switch k {
			case "rbytes":
				dst = &st.RBytes
			case "wbytes":
				dst = &st.WBytes
			case "rios":
				dst = &st.RIOs
			case "wios":
				dst = &st.WIOs
			default:
				continue
			}
			x, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("io.stat line %d: %s=%q is not a count", n+1, k, v)
			}
			*dst = x
		}
		out = append(out, st)
	}
	return out, nil
}

// parseBlkioV1 merges cgroup v1 blkio.throttle.io_service_bytes and
// io_serviced ("8:0 Read 4096" lines, then Write, Sync, Async, Discard and
// Total per device, a "Total" line at the end) into per-device totals.
func parseBlkioV1(bytesFile, opsFile []byte) ([]ioStat, error) {
	byDev := map[string]*ioStat{}
	var order []string
	for i, b := range [][]byte{bytesFile, opsFile} {
		for n, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) != 3 {
				continue // blank or the "Total N" line
			}
			v, err := strconv.ParseUint(f[2], 10, 64)
			if err != nil || !isDevNum(f[0]) {
				return nil, fmt.Errorf("blkio line %d %q: want major:minor op count", n+1, line)
			}
			st := byDev[f[0]]
			if st == nil {
				st = &ioStat{Dev: f[0]}
				byDev[f[0]] = st
				order = append(order, f[0])
			}
			switch {
			case f[1] == "Read" && i == 0:
				st.RBytes = v
			case f[1] == "Write" && i == 0:
				st.WBytes = v
			case f[1] == "Read":
				st.RIOs = v
			case f[1] == "Write":
				st.WIOs = v
			}
		}
	}
	out := make([]ioStat, 0, len(order))
	for _, d := range order {
		out = append(out, *byDev[d])
	}
	return out, nil
}
