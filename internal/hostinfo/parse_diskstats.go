package hostinfo

import (
	"fmt"
	"strconv"
	"strings"
)

// diskStat is one line of /proc/diskstats: cumulative counters of one block
// device (Documentation/admin-guide/iostats.rst). Times are milliseconds.
type diskStat struct {
	Name                                  string
	Reads, ReadsMerged, ReadSectors       uint64
	ReadTicks                             uint64
	Writes, WritesMerged, WriteSectors    uint64
	WriteTicks                            uint64
	InFlight                              uint64
	IOTicks                               uint64 // time with at least one I/O in flight: %util
	TimeInQueue                           uint64 // weighted time: avg queue size
	Discards, DiscardSectors, DiscardTick uint64
}

// parseDiskstats parses /proc/diskstats. Kernels print 14 (before 4.18), 18
// (4.18+, discards) or 20 (5.5+, flushes) columns; the discard columns are 0
// when absent.
func parseDiskstats(b []byte) ([]diskStat, error) {
	var out []diskStat
	for n, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) < 14 {
			return nil, fmt.Errorf("parsing /proc/diskstats line %d: %d columns, want at least 14", n+1, len(f))
		}
		var v [14]uint64
		for i := 0; i < len(v) && 3+i < len(f); i++ {
			x, err := strconv.ParseUint(f[3+i], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("parsing /proc/diskstats line %d column %d: %w", n+1, 4+i, err)
			}
			v[i] = x
		}
		out = append(out, diskStat{
			Name: f[2], Reads: v[0], ReadsMerged: v[1], ReadSectors: v[2], ReadTicks: v[3],
			Writes: v[4], WritesMerged: v[5], WriteSectors: v[6], WriteTicks: v[7],
			InFlight: v[8], IOTicks: v[9], TimeInQueue: v[10],
			Discards: v[11], DiscardSectors: v[13], // v[12] is discards merged
			DiscardTick: discardTicks(f),
		})
	}
	return out, nil
}

// discardTicks is column 18 (ms spent discarding) when the kernel prints it.
func discardTicks(f []string) uint64 {
	if len(f) < 18 {
		return 0
	}
	v, _ := strconv.ParseUint(f[17], 10, 64)
	return v
}

// parseNetDev parses /proc/net/dev: two header lines, then one line per
// interface, "name: 8 receive columns 8 transmit columns" (proc_net(5)).
func parseNetDev(b []byte) ([]netDevStat, error) {
	var out []netDevStat
	for n, line := range strings.Split(string(b), "\n") {
		name, rest, ok := strings.Cut(line, ":")
		if !ok || strings.Contains(name, "|") {
			continue // header lines
		}
		f := strings.Fields(rest)
		if len(f) < 16 {
			return nil, fmt.Errorf("parsing /proc/net/dev line %d: %d counters, want 16", n+1, len(f))
		}
		var v [16]uint64
		for i := range v {
			x, err := strconv.ParseUint(f[i], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("parsing /proc/net/dev line %d column %d: %w", n+1, i+2, err)
			}
			v[i] = x
		}
		out = append(out, netDevStat{
			Name:    strings.TrimSpace(name),
			RxBytes: v[0], RxPackets: v[1], RxErrors: v[2], RxDropped: v[3], RxFIFO: v[4], RxFrame: v[5],
			TxBytes: v[8], TxPackets: v[9], TxErrors: v[10], TxDropped: v[11], TxFIFO: v[12], TxColls: v[13], TxCarrier: v[14],
		})
	}
	return out, nil
}

// netDevStat is one interface of /proc/net/dev.
type netDevStat struct {
	Name                                            string
	RxBytes, RxPackets, RxErrors, RxDropped, RxFIFO uint64
	RxFrame                                         uint64
	TxBytes, TxPackets, TxErrors, TxDropped, TxFIFO uint64
	TxColls, TxCarrier                              uint64
}
