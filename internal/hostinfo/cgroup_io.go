package hostinfo

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
)

// CgroupIO is a cgroup's block I/O per device: totals since the cgroup was
// made, rates over the interval, and the throttle limits set on it. It is
// read from v2 io.stat and io.max when the io controller is on the unified
// tree, else from v1's blkio.throttle files.
type CgroupIO struct {
	From    []CgroupSource   `json:"from"`
	Devices []CgroupIODevice `json:"devices"`
}

// CgroupIODevice is the cgroup's I/O on one device. v1 counts what passed
// blk-throttle (blkio.throttle.io_serviced, io_service_bytes); v2 what the
// cgroup submitted (io.stat).
type CgroupIODevice struct {
	Device           string    `json:"device"` // the sysfs name (vda, sda1), or major:minor when sysfs has none
	MajorMinor       string    `json:"major_minor"`
	ReadBytes        uint64    `json:"read_bytes"`
	WriteBytes       uint64    `json:"write_bytes"`
	Reads            uint64    `json:"reads"`
	Writes           uint64    `json:"writes"`
	ReadBytesPerSec  float64   `json:"read_bytes_per_sec"`
	WriteBytesPerSec float64   `json:"write_bytes_per_sec"`
	ReadsPerSec      float64   `json:"reads_per_sec"`
	WritesPerSec     float64   `json:"writes_per_sec"`
	Limits           []IOLimit `json:"limits,omitempty"` // none: the cgroup may use the device unthrottled
}

// IOLimit is one throttle limit on a device and how much of it the cgroup
// used over the interval. Near 100% the cgroup's I/O waits on its own
// throttle, however idle the disk.
type IOLimit struct {
	Kind        string  `json:"kind"`         // read_bps, write_bps, read_iops or write_iops
	Limit       uint64  `json:"limit"`        // bytes or I/Os per second
	Rate        float64 `json:"rate"`         // the cgroup's rate of that kind over the interval
	UsedPercent float64 `json:"used_percent"` // Rate against Limit
	File        string  `json:"file"`         // where Limit was read: a blkio.throttle.*_device file, or io.max
}

// Setting names where l is set, as an operator looks it up: the v1
// blkio.throttle file, or io.max and the key on its device's line.
func (l IOLimit) Setting() string {
	name := filepath.Base(l.File)
	if name != "io.max" {
		return name
	}
	for _, k := range ioKinds {
		if k.name == l.Kind {
			return name + " " + k.v2Key
		}
	}
	return name
}

// CgroupIOSample is one reading of a cgroup's block I/O counters and limits.
type CgroupIOSample struct {
	Time     time.Time
	from     []CgroupSource
	counters []ioStat
	limits   []fileLimit
	warn     []string
}

// fileLimit is a limit and the file it was read from.
type fileLimit struct {
	ioLimit
	file string
}

// SampleCgroupIO reads d's block I/O: from the v2 directory when it has the
// io controller's files, else from the v1 blkio hierarchy. A sample with no
// source means the cgroup has neither.
func (h *Host) SampleCgroupIO(d CgroupDirs) CgroupIOSample {
	s := CgroupIOSample{Time: time.Now()}
	key, dir, v2 := "blkio", d.V1["blkio"], false
	if d.V2 != "" && exists(filepath.Join(d.V2, "io.stat")) {
		key, dir, v2 = "v2", d.V2, true
	}
	if dir == "" {
		return s
	}
	src := d.source(key, dir)
	s.readCounters(&src, dir, v2)
	s.readLimits(&src, dir, v2)
	s.from = found(src)
	return s
}

// readCounters reads the I/O counters of the cgroup directory dir: v2
// io.stat, or v1 blkio.throttle.io_service_bytes and io_serviced.
func (s *CgroupIOSample) readCounters(src *CgroupSource, dir string, v2 bool) {
	if v2 {
		if b, err := s.read(src, dir, "io.stat"); err == nil {
			st, err := parseIOStat(b)
			s.note(err)
			s.counters = st
		}
		return
	}
	bb, err1 := s.read(src, dir, "blkio.throttle.io_service_bytes")
	ob, err2 := s.read(src, dir, "blkio.throttle.io_serviced")
	if err1 == nil && err2 == nil {
		st, err := parseBlkioV1(bb, ob)
		s.note(err)
		s.counters = st
	}
}

// readLimits reads the throttle limits of the cgroup directory dir: v2
// io.max (absent at the root: no limit there), or v1's four
// blkio.throttle.*_device files.
func (s *CgroupIOSample) readLimits(src *CgroupSource, dir string, v2 bool) {
	if v2 {
		if b, err := s.read(src, dir, "io.max"); err == nil {
			ls, err := parseIOMax(b)
			s.note(err)
			s.addLimits(ls, filepath.Join(dir, "io.max"))
		}
		return
	}
	for kind, k := range ioKinds {
		if b, err := s.read(src, dir, k.v1File); err == nil {
			ls, err := parseThrottleDevice(b, kind)
			s.note(err)
			s.addLimits(ls, filepath.Join(dir, k.v1File))
		}
	}
}

// read reads name in dir and lists it in src when it could.
func (s *CgroupIOSample) read(src *CgroupSource, dir, name string) ([]byte, error) {
	p := filepath.Join(dir, name)
	b, err := os.ReadFile(p)
	if err == nil {
		src.Files = append(src.Files, p)
	} else if !os.IsNotExist(err) {
		s.warn = append(s.warn, fmt.Sprintf("reading %s: %v", p, err))
	}
	return b, err
}

func (s *CgroupIOSample) note(err error) {
	if err != nil {
		s.warn = append(s.warn, err.Error())
	}
}

func (s *CgroupIOSample) addLimits(ls []ioLimit, file string) {
	for _, l := range ls {
		s.limits = append(s.limits, fileLimit{l, file})
	}
}

// CgroupIOOver is the cgroup's I/O between two samples: b's totals and
// limits, and rates from the counters' growth since a. It is nil when b
// found no I/O controller for the cgroup.
func (h *Host) CgroupIOOver(a, b CgroupIOSample) *CgroupIO {
	if len(b.from) == 0 {
		return nil
	}
	return &CgroupIO{From: b.from, Devices: ioDevicesOver(a, b, b.Time.Sub(a.Time).Seconds(), h.BlockName)}
}

// ioDevicesOver is each device's I/O between two samples of one cgroup dt
// seconds apart, b's limits with the rate against each, and the device
// named by name. perf_cgroup_summary and the scan of every cgroup with a
// limit (cgroup_limited.go) both compute their rates here.
func ioDevicesOver(a, b CgroupIOSample, dt float64, name func(dev string) string) []CgroupIODevice {
	if dt <= 0 {
		dt = 1e-9
	}
	prev := map[string]ioStat{}
	for _, x := range a.counters {
		prev[x.Dev] = x
	}
	devs := []CgroupIODevice{}
	at := map[string]int{}
	device := func(dev string) *CgroupIODevice {
		if i, ok := at[dev]; ok {
			return &devs[i]
		}
		at[dev] = len(devs)
		devs = append(devs, CgroupIODevice{Device: name(dev), MajorMinor: dev})
		return &devs[len(devs)-1]
	}
	rate := func(x, y uint64) float64 { return figures.Round2(float64(delta(x, y)) / dt) }
	for _, x := range b.counters {
		p, d := prev[x.Dev], device(x.Dev)
		d.ReadBytes, d.WriteBytes, d.Reads, d.Writes = x.RBytes, x.WBytes, x.RIOs, x.WIOs
		d.ReadBytesPerSec, d.WriteBytesPerSec = rate(p.RBytes, x.RBytes), rate(p.WBytes, x.WBytes)
		d.ReadsPerSec, d.WritesPerSec = rate(p.RIOs, x.RIOs), rate(p.WIOs, x.WIOs)
	}
	for _, l := range b.limits {
		d := device(l.Dev)
		r := [...]float64{d.ReadBytesPerSec, d.WriteBytesPerSec, d.ReadsPerSec, d.WritesPerSec}[l.Kind]
		used := 100.0 // a zero limit holds every I/O
		if l.Value > 0 {
			used = figures.Round2(r / float64(l.Value) * 100)
		}
		d.Limits = append(d.Limits, IOLimit{Kind: ioKinds[l.Kind].name, Limit: l.Value, Rate: r, UsedPercent: used, File: l.file})
	}
	return devs
}
