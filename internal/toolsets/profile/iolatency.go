package profile

import (
	"cmp"
	"context"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/stacks"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/view"
)

type ioLatencyIn struct {
	DurationSeconds int    `json:"duration_seconds,omitempty" default:"5"`
	Mode            string `json:"mode,omitempty" default:"snapshot"`
	Device          string `json:"device,omitempty" jsonschema:"only this device, e.g. vda"`
}

// deviceLatency is one device's latency over the interval.
type deviceLatency struct {
	Device      string             `json:"device"`
	Snapshot    *hostinfo.IODevice `json:"snapshot,omitempty" jsonschema:"iostat -x figures: await, r_await, w_await, aqu-sz, %util"`
	HistogramUS *stacks.Histogram  `json:"histogram_us,omitempty" jsonschema:"trace mode: request latency (issue to completion) in microseconds"`
}

type ioLatencyOut struct {
	Mode            string          `json:"mode"`
	Mechanism       string          `json:"mechanism" jsonschema:"procfs, or bpftrace on block:block_rq_issue/complete"`
	DurationSeconds float64         `json:"duration_seconds"`
	Devices         []deviceLatency `json:"devices"`
}

func (s *Set) ioLatency() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_io_latency",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "Block I/O latency",
		Description: "Block I/O latency per device without eBPF: /proc/diskstats averages or percentiles traced by perf.",
		Timeout:     2 * time.Minute,
		View:        view.URI,
	}, s.handleIOLatency).WithRange("duration_seconds", 1, 60).WithEnum("mode", "snapshot", "trace")
}

func (s *Set) handleIOLatency(ctx context.Context, call *tool.Call, in ioLatencyIn) (ioLatencyOut, error) {
	dur := time.Duration(cmp.Or(in.DurationSeconds, 5)) * time.Second
	if cmp.Or(in.Mode, "snapshot") == "snapshot" {
		return s.ioSnapshot(ctx, call, dur, in.Device)
	}
	release, err := s.acquire()
	if err != nil {
		return ioLatencyOut{}, err
	}
	defer release()
	return s.ioTrace(ctx, call, dur, in.Device)
}

func (s *Set) ioSnapshot(ctx context.Context, call *tool.Call, dur time.Duration, device string) (ioLatencyOut, error) {
	before, _, err := s.deps.Host.ReadCounters(nil)
	if err != nil {
		return ioLatencyOut{}, tool.Wrap(tool.ExecutionFailed, err, "reading /proc/diskstats: %v", err)
	}
	if err := call.Wait(ctx, dur, "counting block requests"); err != nil {
		return ioLatencyOut{}, err
	}
	after, _, err := s.deps.Host.ReadCounters(nil)
	if err != nil {
		return ioLatencyOut{}, tool.Wrap(tool.ExecutionFailed, err, "reading /proc/diskstats: %v", err)
	}
	snap := hostinfo.BuildPerfSnapshot(hostinfo.SnapshotInput{Before: before, After: after})
	out := ioLatencyOut{Mode: "snapshot", Mechanism: "procfs", DurationSeconds: dur.Seconds(), Devices: []deviceLatency{}}
	for _, d := range snap.IO.Devices {
		if device == "" || d.Name == device {
			out.Devices = append(out.Devices, deviceLatency{Device: d.Name, Snapshot: &d})
		}
	}
	if device != "" && len(out.Devices) == 0 {
		return ioLatencyOut{}, tool.Errorf(tool.DeviceNotFound, "no block device %q", tool.Clip(device))
	}
	return out, nil
}

// ioTraceProgram times each block request from issue to completion, per
// device. perf drops many irq-context block tracepoint samples on VMs, so
// bpftrace, which counts in the kernel, is used.
const ioTraceProgram = `tracepoint:block:block_rq_issue { @start[args->dev, args->sector] = nsecs; }
tracepoint:block:block_rq_complete /@start[args->dev, args->sector]/ {
	@us[args->dev] = hist((nsecs - @start[args->dev, args->sector]) / 1000);
	delete(@start[args->dev, args->sector]);
}
interval:s:%d { exit(); }
END { clear(@start); }`

func (s *Set) ioTrace(ctx context.Context, call *tool.Call, dur time.Duration, device string) (ioLatencyOut, error) {
	if s.deps.Exec == nil || !s.deps.Exec.Available("bpftrace") {
		return ioLatencyOut{}, tool.Errorf(tool.CapabilityMissing, "trace mode needs bpftrace, which is not installed").
			WithSuggestion("Use mode snapshot, which needs nothing but /proc.")
	}
	prog := strings.Replace(ioTraceProgram, "%d", strconv.Itoa(int(dur/time.Second)), 1)
	defer call.ProgressWhile(ctx, dur, "tracing block requests")() // bpftrace times the trace
	res, err := s.deps.Exec.Run(ctx, execx.Cmd{Name: "bpftrace", Args: []string{"-f", "json", "-e", prog}, Timeout: dur + 30*time.Second, MaxOutput: 16 << 20, StopSignal: syscall.SIGINT})
	if ctx.Err() != nil {
		return ioLatencyOut{}, ctx.Err()
	}
	if err != nil || res.ExitCode != 0 {
		return ioLatencyOut{}, tool.Errorf(tool.ExecutionFailed, "bpftrace failed: %v %s", err, lastLines(string(res.Stderr), 3))
	}
	hists, err := stacks.ParseBpftraceHists(res.Stdout, "@us")
	if err != nil {
		return ioLatencyOut{}, tool.Wrap(tool.ParseError, err, "bpftrace output: %v", err)
	}
	out := ioLatencyOut{Mode: "trace", Mechanism: "bpftrace: tracepoint:block:block_rq_issue and block_rq_complete", DurationSeconds: dur.Seconds(), Devices: []deviceLatency{}}
	for i := range hists {
		name := s.deps.Host.BlockName(stacks.DevName(hists[i].Key))
		if device != "" && name != device {
			continue
		}
		hists[i].Key = name
		out.Devices = append(out.Devices, deviceLatency{Device: name, HistogramUS: &hists[i]})
	}
	if len(out.Devices) == 0 {
		call.Warn("no block request completed during the interval")
	}
	return out, nil
}
