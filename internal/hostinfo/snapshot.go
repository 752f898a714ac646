package hostinfo

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
)

// Snapshot is what sys_snapshot reports (spec 002 section 5.2): how busy the
// host is right now, small enough for an agent to read every time.
type Snapshot struct {
	CPUPercent    float64    `json:"cpu_percent"` // busy share of all CPUs over the window, 0-100
	LoadAvg       [3]float64 `json:"load_avg"`    // 1, 5 and 15 minute load averages
	TasksRunnable int        `json:"tasks_runnable"`
	TasksTotal    int        `json:"tasks_total"`

	MemTotalBytes     uint64 `json:"mem_total_bytes"`
	MemUsedBytes      uint64 `json:"mem_used_bytes"` // total - available: what cannot be reclaimed
	MemAvailableBytes uint64 `json:"mem_available_bytes"`
	MemUsedMB         uint64 `json:"mem_used_mb"` // MiB
	MemTotalMB        uint64 `json:"mem_total_mb"`
	SwapTotalBytes    uint64 `json:"swap_total_bytes"`
	SwapUsedBytes     uint64 `json:"swap_used_bytes"`

	Disks        []Disk   `json:"disks"` // real mounts, one per device, by mount point
	ShortSummary string   `json:"short_summary"`
	Warnings     []string `json:"warnings,omitempty"`
}

// SnapshotOptions tune Snapshot; nil means all defaults.
type SnapshotOptions struct {
	// Window is how long CPU use is measured over; default 100 ms.
	Window time.Duration
	// CPUPercent, when set, is the CPU figure measured elsewhere over a
	// window the caller states (the sampler's): Snapshot then reads
	// /proc/stat not at all and waits for no window of its own.
	CPUPercent *float64
	// MountInfoPath is the mount table to list disks from; default
	// <Proc>/self/mountinfo. /proc/1/mountinfo shows the mounts of PID 1's
	// namespace instead.
	MountInfoPath string
	// Statfs returns a mount point's usage; nil calls statfs(2) on the mount
	// point as written in the mount table.
	Statfs func(path string) (Statfs, error)
	// StatfsTimeout bounds the wait for statfs answers (a hung network mount);
	// default 1 s.
	StatfsTimeout time.Duration
}

const (
	defaultWindow        = 100 * time.Millisecond
	defaultStatfsTimeout = time.Second
	mib                  = 1 << 20
	gib                  = 1 << 30
)

// Snapshot samples /proc/stat twice, Window apart, and reads load, memory and
// disk usage in between, so the whole call takes little more than Window;
// given CPUPercent it only reads load, memory and disks. It fails when
// /proc/stat, /proc/loadavg or /proc/meminfo cannot be read or ctx ends;
// disk problems are warnings.
func (h *Host) Snapshot(ctx context.Context, opts *SnapshotOptions) (Snapshot, error) {
	o := SnapshotOptions{}
	if opts != nil {
		o = *opts
	}
	o.Window = cmp.Or(o.Window, defaultWindow)
	o.StatfsTimeout = cmp.Or(o.StatfsTimeout, defaultStatfsTimeout)
	o.MountInfoPath = cmp.Or(o.MountInfoPath, h.procPath("self", "mountinfo"))
	if o.Statfs == nil {
		o.Statfs = unixStatfs
	}
	if err := ctx.Err(); err != nil {
		return Snapshot{}, err
	}

	start := time.Now()
	var before procStat
	if o.CPUPercent == nil {
		var err error
		if before, err = h.readStat(); err != nil {
			return Snapshot{}, err
		}
	}
	var s Snapshot
	var w warnings
	if err := h.fillLoad(&s); err != nil {
		return Snapshot{}, err
	}
	if err := h.fillMemory(&s, &w); err != nil {
		return Snapshot{}, err
	}
	s.Disks = []Disk{}
	if mounts, err := h.mountInfo(o.MountInfoPath); err != nil {
		w.add("disks unknown: %v", err)
	} else {
		s.Disks = diskUsage(ctx, realMounts(mounts), o.Statfs, o.StatfsTimeout, &w)
	}

	if o.CPUPercent != nil {
		s.CPUPercent = figures.Round1(*o.CPUPercent)
	} else {
		if err := sleepCtx(ctx, o.Window-time.Since(start)); err != nil {
			return Snapshot{}, err
		}
		after, err := h.readStat()
		if err != nil {
			return Snapshot{}, err
		}
		s.CPUPercent = figures.Round1(cpuPercent(before.CPU, after.CPU))
	}
	s.ShortSummary = summary(&s)
	s.Warnings = w
	return s, nil
}

func (h *Host) readStat() (procStat, error) {
	b, err := os.ReadFile(h.procPath("stat"))
	if err != nil {
		return procStat{}, fmt.Errorf("reading cpu times: %w", err)
	}
	return parseStat(b)
}

func (h *Host) fillLoad(s *Snapshot) error {
	b, err := os.ReadFile(h.procPath("loadavg"))
	if err != nil {
		return fmt.Errorf("reading load average: %w", err)
	}
	la, err := parseLoadavg(b)
	if err != nil {
		return err
	}
	s.LoadAvg, s.TasksRunnable, s.TasksTotal = la.Load, la.Runnable, la.Total
	return nil
}

func (h *Host) fillMemory(s *Snapshot, w *warnings) error {
	mi, err := h.meminfo()
	if err != nil {
		return err
	}
	s.MemTotalBytes = deref(mi.MemTotalBytes)
	if mi.MemAvailableBytes != nil {
		s.MemAvailableBytes = *mi.MemAvailableBytes
	} else {
		// Kernels before 3.14 have no MemAvailable; free plus page cache is
		// the estimate free(1) used then.
		s.MemAvailableBytes = deref(mi.MemFreeBytes) + deref(mi.BuffersBytes) + deref(mi.CachedBytes)
		w.add("no MemAvailable in meminfo: available memory estimated as free + buffers + cached")
	}
	s.MemAvailableBytes = min(s.MemAvailableBytes, s.MemTotalBytes)
	s.MemUsedBytes = s.MemTotalBytes - s.MemAvailableBytes
	s.MemUsedMB, s.MemTotalMB = s.MemUsedBytes/mib, s.MemTotalBytes/mib
	s.SwapTotalBytes = deref(mi.SwapTotalBytes)
	s.SwapUsedBytes = s.SwapTotalBytes - min(deref(mi.SwapFreeBytes), s.SwapTotalBytes)
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// summaryDisks is how many of the fullest disks the summary names.
const summaryDisks = 3

// summary is one line an agent can quote: "CPU 12%, load 0.42/0.38/0.35,
// RAM 4.0/16.0 GiB (25%), / 58% used", naming the fullest few disks.
func summary(s *Snapshot) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CPU %.0f%%, load %.2f/%.2f/%.2f", s.CPUPercent, s.LoadAvg[0], s.LoadAvg[1], s.LoadAvg[2])
	if s.MemTotalBytes > 0 {
		fmt.Fprintf(&b, ", RAM %.1f/%.1f GiB (%.0f%%)", float64(s.MemUsedBytes)/gib, float64(s.MemTotalBytes)/gib,
			float64(s.MemUsedBytes)/float64(s.MemTotalBytes)*100)
	}
	if s.SwapUsedBytes > 0 {
		fmt.Fprintf(&b, ", swap %.1f/%.1f GiB", float64(s.SwapUsedBytes)/gib, float64(s.SwapTotalBytes)/gib)
	}
	fullest := slices.Clone(s.Disks)
	slices.SortStableFunc(fullest, func(a, b Disk) int { return cmp.Compare(b.UsedPercent, a.UsedPercent) })
	for _, d := range fullest[:min(len(fullest), summaryDisks)] {
		fmt.Fprintf(&b, ", %s %.0f%% used", d.Mount, d.UsedPercent)
	}
	return b.String()
}
