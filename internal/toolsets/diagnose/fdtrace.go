package diagnose

import (
	"context"
	"errors"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// fdIn is the input of perf_fd_trace (spec 000 section 9.18).
type fdIn struct {
	PID             int  `json:"pid" jsonschema:"process to watch"`
	DurationSeconds int  `json:"duration_seconds,omitempty" default:"30"`
	IntervalSec     int  `json:"interval_sec,omitempty" jsonschema:"between samples" default:"5"`
	IncludeFDList   bool `json:"include_fd_list,omitempty"`
	MaxFDsListed    int  `json:"max_fds_listed,omitempty" default:"100"`
}

// fdOut is perf_fd_trace's answer.
type fdOut struct {
	PID          int               `json:"pid"`
	Counts       hostinfo.FDCounts `json:"counts"`     // at the end
	LimitSoft    uint64            `json:"limit_soft"` // RLIMIT_NOFILE; 0 is unlimited
	LimitHard    uint64            `json:"limit_hard"`
	LimitPercent float64           `json:"limit_percent"` // of the soft limit
	Samples      []fdSample        `json:"samples"`
	Growth       fdGrowth          `json:"growth"`
	Verdict      string            `json:"verdict"` // leaking, possible_leak, stable or shrinking
	Evidence     []string          `json:"evidence"`
	FDs          []hostinfo.FD     `json:"fds,omitempty"`
	FDsOmitted   int               `json:"fds_omitted,omitempty"`
}

type fdSample struct {
	AtMS int64 `json:"at_ms"`
	hostinfo.FDCounts
}

func (s *Set) fdTrace() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_fd_trace",
		Kind:        tool.ReadOnly,
		Title:       "File descriptor leak check",
		Description: "Watch a process's open file descriptors by type: growth, limit and a leak verdict.",
		Timeout:     75 * time.Second,
	}, s.handleFD).WithRange("pid", 1, 1<<22).WithRange("duration_seconds", 1, 60).
		WithRange("interval_sec", 1, 10).WithRange("max_fds_listed", 10, 1000)
}

func (s *Set) handleFD(ctx context.Context, call *tool.Call, in fdIn) (fdOut, error) {
	secs := orDefault(in.DurationSeconds, 30)
	// Without an interval, a short watch still gets several samples: 5 s
	// for the default 30 s, down to 1 s.
	dur, step := time.Duration(secs)*time.Second, time.Duration(orDefault(in.IntervalSec, min(5, max(1, secs/6))))*time.Second
	if step > dur {
		return fdOut{}, tool.Errorf(tool.InvalidDuration, "interval_sec %v is longer than duration_seconds %v", step, dur).
			WithSuggestion("Use an interval_sec no longer than duration_seconds, such as duration 30 and interval 5.")
	}
	out := fdOut{PID: in.PID, Samples: []fdSample{}}
	start := time.Now()
	last, err := s.deps.Host.ReadFDs(in.PID)
	if errors.Is(err, hostinfo.ErrPIDNotFound) {
		return fdOut{}, tool.Errorf(tool.PIDNotFound, "no process with pid %d", in.PID)
	}
	if err != nil {
		return fdOut{}, tool.Wrap(tool.PermissionDenied, err, "%v", err)
	}
	out.Samples = append(out.Samples, fdSample{AtMS: 0, FDCounts: last.Counts})
	// A sample every step, the last at the last whole step; the watch
	// ends early when the process exits or its descriptors turn unreadable.
	watch, stop := context.WithCancel(ctx)
	defer stop()
	progress := call.Elapsed(ctx, dur, "sampling descriptors")
	var readErr error
	err = tool.Wait(watch, dur/step*step, step, func(time.Duration) {
		r, err := s.deps.Host.ReadFDs(in.PID)
		switch {
		case errors.Is(err, hostinfo.ErrPIDNotFound):
			call.Warn("process %d exited during the trace; the verdict uses the samples taken before", in.PID)
			stop()
		case err != nil:
			readErr = err
			stop()
		default:
			last = r
			out.Samples = append(out.Samples, fdSample{AtMS: time.Since(start).Milliseconds(), FDCounts: r.Counts})
			progress(time.Since(start))
		}
	})
	if err != nil && ctx.Err() != nil {
		return fdOut{}, ctx.Err()
	}
	if readErr != nil {
		return fdOut{}, tool.Wrap(tool.PermissionDenied, readErr, "%v", readErr)
	}
	out.Counts = last.Counts
	if soft, hard, err := s.deps.Host.FDLimit(in.PID); err == nil {
		out.LimitSoft, out.LimitHard = soft, hard
		if soft > 0 {
			out.LimitPercent = figures.Round2(float64(out.Counts.Total) / float64(soft) * 100)
		}
	} else {
		call.Warn("descriptor limit unknown: %v", err)
	}
	out.Growth, out.Verdict, out.Evidence = fdVerdict(out.Samples, out.LimitSoft)
	if in.IncludeFDList {
		max := orDefault(in.MaxFDsListed, 100)
		out.FDs = last.FDs[:min(max, len(last.FDs))]
		out.FDsOmitted = len(last.FDs) - len(out.FDs)
	}
	return out, nil
}

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
