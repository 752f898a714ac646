package trace

import (
	"context"
	"slices"
	"sort"
	"time"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/stacks"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/view"
)

// bioIn is perf_bio_latency's input (spec 000 section 9.10).
type bioIn struct {
	DurationSeconds int    `json:"duration_seconds,omitempty" default:"5"`
	Device          string `json:"device,omitempty" jsonschema:"name (vda) or major:minor"`
	PerDevice       bool   `json:"per_device,omitempty"`
	Queued          bool   `json:"queued,omitempty" jsonschema:"include time queued in the OS"`
	Milliseconds    bool   `json:"milliseconds,omitempty"`
	HistogramType   string `json:"histogram_type,omitempty" default:"log2"`
	LinearBucketMS  int    `json:"linear_bucket_ms,omitempty" default:"10"`
}

type histOut struct {
	Mechanism     string             `json:"mechanism" jsonschema:"the attach points used"`
	Unit          string             `json:"unit" jsonschema:"us or ms: the unit of bucket bounds and percentiles"`
	HistogramType string             `json:"histogram_type"`
	Total         uint64             `json:"total" jsonschema:"events measured"`
	Histograms    []stacks.Histogram `json:"histograms" jsonschema:"one per device with per_device, else one (all, a device or a pid); percentiles are bucket upper bounds"`
}

func (s *Set) bioLatency() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_bio_latency",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "Block I/O latency histogram (eBPF)",
		Description: "eBPF histogram of block request latency, log2 or linear, per device if asked.",
		Timeout:     45 * time.Second,
		View:        view.URI,
	}, s.handleBio).WithRange("duration_seconds", 1, 30).WithEnum("histogram_type", "log2", "linear").WithRange("linear_bucket_ms", 1, 100)
}

func (s *Set) handleBio(ctx context.Context, call *tool.Call, in bioIn) (histOut, error) {
	if err := s.preflight("perf_io_latency (mode snapshot, from /proc/diskstats)"); err != nil {
		return histOut{}, err
	}
	names := s.blockDevices()
	var want uint32
	if disk := s.host.DiskOf(in.Device); disk != in.Device {
		call.Warn("%s is a partition; the block layer reports requests against its disk, %s, which is traced", tool.Clip(in.Device), disk)
		in.Device = disk
	}
	if in.Device != "" {
		for dev, n := range names {
			if n == in.Device || devName(map[uint32]string{}, dev) == in.Device {
				want = dev
			}
		}
		if want == 0 {
			known := make([]string, 0, len(names))
			for _, n := range names {
				known = append(known, n)
			}
			sort.Strings(known)
			return histOut{}, tool.Errorf(tool.InvalidArgument, "no block device %q", tool.Clip(in.Device)).
				WithSuggestion("Use one of: %v (or major:minor).", known)
		}
	}
	o := bpfprog.BioOptions{Queued: in.Queued, UnitNS: 1000}
	out := histOut{Mechanism: bpfprog.BioMechanism(in.Queued), Unit: "us", HistogramType: "log2"}
	if in.Milliseconds || in.HistogramType == "linear" {
		o.UnitNS, out.Unit = 1_000_000, "ms"
	}
	if in.HistogramType == "linear" {
		o.LinearWidth, out.HistogramType = uint64(max(in.LinearBucketMS, 0)), "linear"
		if o.LinearWidth == 0 {
			o.LinearWidth = 10
		}
	}
	d := seconds(in.DurationSeconds, 5)
	byDev, err := bpfprog.BioLatency(ctx, d, o, call.Elapsed(ctx, d, "tracing block requests"))
	if err != nil {
		return histOut{}, tool.Failed(err)
	}
	var all bpfprog.Slots
	devs := make([]uint32, 0, len(byDev))
	for dev := range byDev {
		if want == 0 || dev == want {
			devs = append(devs, dev)
		}
	}
	slices.Sort(devs)
	for _, dev := range devs {
		all.Add(byDev[dev])
		if in.PerDevice {
			out.Histograms = append(out.Histograms, byDev[dev].Histogram(devName(names, dev), o.LinearWidth))
		}
	}
	if !in.PerDevice {
		key := "all"
		if want != 0 {
			key = devName(names, want)
		}
		out.Histograms = []stacks.Histogram{all.Histogram(key, o.LinearWidth)}
	}
	for _, h := range out.Histograms {
		out.Total += h.Count
	}
	if out.Total == 0 {
		call.Warn("no block request completed during the trace: the disks were idle (or the device saw no I/O)")
	}
	return out, nil
}
