package hostinfo

import (
	"os"
	"strconv"
	"strings"
)

// ProcIO is /proc/<pid>/io (Documentation/filesystems/proc.rst, "/proc/<pid>/io"):
// what a process asked of the VFS (rchar, syscr...) and what reached the
// block layer on its behalf (read_bytes, write_bytes).
type ProcIO struct {
	PID                        int
	Comm                       string
	RChar, WChar, SyscR, SyscW uint64
	ReadBytes, WriteBytes      uint64
	CancelledWriteBytes        uint64
}

// parseProcIO parses /proc/<pid>/io's "name: value" lines.
func parseProcIO(b []byte) (ProcIO, error) {
	var p ProcIO
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		if err != nil {
			return ProcIO{}, err
		}
		switch k {
		case "rchar":
			p.RChar = n
		case "wchar":
			p.WChar = n
		case "syscr":
			p.SyscR = n
		case "syscw":
			p.SyscW = n
		case "read_bytes":
			p.ReadBytes = n
		case "write_bytes":
			p.WriteBytes = n
		case "cancelled_write_bytes":
			p.CancelledWriteBytes = n
		}
	}
	return p, nil
}

// ReadAllProcIO reads /proc/<pid>/io of every process it may read (all of
// them as root); processes it may not read, and ones that exit meanwhile,
// are counted in skipped.
func (h *Host) ReadAllProcIO() (out map[int]ProcIO, skipped int, err error) {
	entries, err := os.ReadDir(h.roots.Proc)
	if err != nil {
		return nil, 0, err
	}
	out = map[int]ProcIO{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(h.procPath(e.Name(), "io"))
		if err != nil {
			skipped++
			continue
		}
		p, err := parseProcIO(b)
		if err != nil {
			skipped++
			continue
		}
		p.PID = pid
		if c, err := readTrimmed(h.procPath(e.Name(), "comm")); err == nil {
			p.Comm = c
		}
		out[pid] = p
	}
	return out, skipped, nil
}

// DiskTotals sums the reads and writes of whole disks in a Counters reading,
// for comparing VFS traffic with what reached the block layer.
func (c Counters) DiskTotals() (reads, writes, readBytes, writeBytes uint64) {
	for _, d := range c.disks {
		if c.whole != nil && !c.whole[d.Name] {
			continue
		}
		reads += d.Reads
		writes += d.Writes
		readBytes += d.ReadSectors * 512
		writeBytes += d.WriteSectors * 512
	}
	return
}

// VMStat returns a /proc/vmstat counter of the reading.
func (c Counters) VMStat(name string) uint64 { return c.vm[name] }
