package profile

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/hostmcp/hostmcp/internal/flamegraph"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/stacks"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/view"
)

type cpuIn struct {
	DurationSeconds int    `json:"duration_seconds,omitempty" default:"10"`
	SampleRateHz    int    `json:"sample_rate_hz,omitempty" jsonschema:"per CPU" default:"99"`
	PID             int    `json:"pid,omitempty" jsonschema:"only this pid"`
	IncludeKernel   *bool  `json:"include_kernel,omitempty" jsonschema:"keep kernel frames" default:"true"`
	OutputFormat    string `json:"output_format,omitempty" jsonschema:"collapsed adds the folded stacks" default:"summary"`
}

// artifactRef names an artifact in an answer.
type artifactRef struct {
	ID   string `json:"id"`
	Type string `json:"type" jsonschema:"collapsed, pprof or flamegraph"`
	MIME string `json:"mime"`
	Size int64  `json:"size_bytes"`
	URI  string `json:"uri" jsonschema:"read it with perf_get_artifact or as this resource"`
}

type cpuOut struct {
	Mode            string         `json:"mode" jsonschema:"perf (stacks) or procfs (shares only, perf unavailable)"`
	Event           string         `json:"event,omitempty"`
	DurationSeconds float64        `json:"duration_seconds"`
	SampleRateHz    int            `json:"sample_rate_hz,omitempty"`
	Summary         stacks.Summary `json:"summary"`
	Collapsed       string         `json:"collapsed,omitempty" jsonschema:"folded stacks, with output_format collapsed"`
	Artifacts       []artifactRef  `json:"artifacts"`
}

func (s *Set) cpuProfile() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_cpu_profile",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "CPU profile",
		Description: "Sample on-CPU stacks (perf record -g), system-wide or one pid: top functions, hot stacks, flame graph and pprof.",
		Timeout:     2 * time.Minute,
		View:        view.URI,
	}, s.handleCPU).WithRange("duration_seconds", 1, 60).WithRange("sample_rate_hz", 1, 999).WithRange("pid", 1, 1<<22).
		WithEnum("output_format", "summary", "collapsed")
}

func (s *Set) handleCPU(ctx context.Context, call *tool.Call, in cpuIn) (cpuOut, error) {
	dur := time.Duration(cmp.Or(in.DurationSeconds, 10)) * time.Second
	rate := cmp.Or(in.SampleRateHz, 99)
	if in.PID != 0 {
		if !s.deps.Host.ProcessExists(in.PID) {
			return cpuOut{}, tool.Errorf(tool.PIDNotFound, "no process with pid %d", in.PID)
		}
	}
	release, err := s.acquire()
	if err != nil {
		return cpuOut{}, err
	}
	defer release()
	if s.needPerf() != nil {
		call.Warn("perf is not installed: CPU shares per process were sampled from /proc instead, without stacks")
		return s.procfsProfile(ctx, call, dur, in.PID)
	}
	dir, cleanup, err := s.workDir()
	if err != nil {
		return cpuOut{}, err
	}
	defer cleanup()
	// cpu-clock is a software event, present in VMs without a PMU, where
	// the hardware cycles event is not.
	args := append([]string{"record"}, recordFlags...)
	args = append(args, "-g", "-e", "cpu-clock", "-F", strconv.Itoa(rate), "-o", "perf.data", "--quiet")
	if in.PID != 0 {
		args = append(args, "-p", strconv.Itoa(in.PID))
	} else {
		args = append(args, "-a")
	}
	start := time.Now()
	if _, err := s.record(ctx, call, dir, dur, "recording CPU samples", args...); err != nil {
		return cpuOut{}, err
	}
	elapsed := time.Since(start)
	script, err := s.perfOutput(ctx, dir, "script", "-i", "perf.data", "-F", stacks.ScriptFields)
	if err != nil {
		return cpuOut{}, err
	}
	samples, err := stacks.ParsePerfScript(script)
	if err != nil {
		return cpuOut{}, tool.Wrap(tool.ParseError, err, "perf script output: %v", err)
	}
	if in.IncludeKernel != nil && !*in.IncludeKernel {
		samples = stacks.DropKernel(samples)
	}
	out := cpuOut{Mode: "perf", Event: "cpu-clock", DurationSeconds: elapsed.Round(time.Millisecond).Seconds(), SampleRateHz: rate, Summary: stacks.Summarize(samples, 15)}
	if len(samples) == 0 {
		call.Warn("perf recorded no samples: the target was idle, or perf lacks permission to sample it")
	}
	collapsed := stacks.Collapsed(samples)
	if in.OutputFormat == "collapsed" {
		out.Collapsed = string(collapsed)
	}
	title := "CPU profile, system-wide"
	if in.PID != 0 {
		title = fmt.Sprintf("CPU profile of pid %d", in.PID)
	}
	svg, err := flamegraph.Render(collapsed, fmt.Sprintf("%s, %s, %d samples", title, elapsed.Round(time.Second), out.Summary.TotalSamples))
	if err != nil {
		return cpuOut{}, tool.Wrap(tool.Internal, err, "drawing the flame graph: %v", err)
	}
	pb, err := stacks.Pprof(samples, rate, start, elapsed)
	if err != nil {
		return cpuOut{}, tool.Wrap(tool.Internal, err, "encoding the pprof profile: %v", err)
	}
	out.Artifacts, err = s.saveArtifacts(ctx, call, "perf_cpu_profile", []artifactData{
		{"collapsed", "text/plain; charset=utf-8", "txt", collapsed},
		{"pprof", "application/vnd.google.protobuf+gzip", "pb.gz", pb},
		{"flamegraph", "image/svg+xml", "svg", svg},
	})
	return out, err
}

type artifactData struct {
	typ, mime, ext string
	data           []byte
}

// saveArtifacts stores one run's artifacts under one run id, and links the
// answer to each.
func (s *Set) saveArtifacts(ctx context.Context, call *tool.Call, toolName string, list []artifactData) ([]artifactRef, error) {
	if s.deps.Store == nil {
		return []artifactRef{}, nil
	}
	run := fmt.Sprintf("R_%s_%d", time.Now().UTC().Format("20060102T150405Z"), os.Getpid())
	refs := []artifactRef{}
	for _, a := range list {
		art, err := s.deps.Store.PutArtifact(ctx, store.ArtifactInput{RunID: run, Tool: toolName, Type: a.typ, MIME: a.mime, Ext: a.ext, Data: a.data})
		if err != nil {
			return nil, tool.Wrap(tool.WriteFailed, err, "storing the %s artifact: %v", a.typ, err)
		}
		link := tool.ArtifactLink(art.ID, art.Tool, art.Type, art.MIME, art.Size)
		call.Link(link)
		refs = append(refs, artifactRef{ID: art.ID, Type: art.Type, MIME: art.MIME, Size: art.Size, URI: link.URI})
	}
	return refs, nil
}

// procfsProfile samples per-process CPU time from /proc when perf is not
// there: shares, no stacks.
func (s *Set) procfsProfile(ctx context.Context, call *tool.Call, dur time.Duration, pid int) (cpuOut, error) {
	read := func() map[int]procTicks { return readTicks(s.deps.Host, pid) }
	before := read()
	if err := call.Wait(ctx, dur, "sampling CPU time"); err != nil {
		return cpuOut{}, err
	}
	after := read()
	var samples []stacks.Sample
	for p, a := range after {
		if d := a.ticks - before[p].ticks; d > 0 && a.ticks >= before[p].ticks {
			samples = append(samples, stacks.Sample{PID: p, TID: p, Comm: a.comm, Count: int64(d), Stack: []stacks.Frame{{Func: "[" + a.comm + "]"}}})
		}
	}
	return cpuOut{Mode: "procfs", DurationSeconds: dur.Seconds(), Summary: stacks.Summarize(samples, 15), Artifacts: []artifactRef{}}, nil
}

type procTicks struct {
	comm  string
	ticks uint64
}

// readTicks reads the CPU time of every process (or of pid) from procfs.
func readTicks(host *hostinfo.Host, pid int) map[int]procTicks {
	out := map[int]procTicks{}
	r, err := host.Processes(0)
	if err != nil {
		return out
	}
	pids := []int{pid}
	if pid == 0 {
		if pids, err = r.PIDs(); err != nil {
			return out
		}
	}
	for _, p := range pids {
		if pr, err := r.Read(p, false); err == nil {
			out[p] = procTicks{pr.Comm, pr.CPUTicks}
		}
	}
	return out
}
