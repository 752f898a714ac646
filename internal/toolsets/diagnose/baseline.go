package diagnose

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// baselineArgs are the arguments perf_snapshot and perf_use_check share to
// keep a reading under a name and to tell what changed since one.
type baselineArgs struct {
	SaveAs    string `json:"save_as,omitempty" jsonschema:"baseline name"`
	CompareTo string `json:"compare_to,omitempty" jsonschema:"baseline name"`
}

// baselineJob is a call's baseline work: the baseline to compare with,
// loaded before the host is sampled so a wrong name fails at once.
type baselineJob struct {
	args baselineArgs
	then *health.Baseline
}

// startBaseline checks the names and loads the baseline to compare with.
func (s *Set) startBaseline(ctx context.Context, a baselineArgs) (*baselineJob, error) {
	if a.SaveAs == "" && a.CompareTo == "" {
		return nil, nil
	}
	if s.deps.Baselines == nil {
		return nil, tool.Errorf(tool.FeatureDisabled, "baselines need the state store, which this server was built without")
	}
	for _, f := range []struct{ arg, name string }{{"save_as", a.SaveAs}, {"compare_to", a.CompareTo}} {
		if f.name != "" && !store.ValidBaselineName(f.name) {
			return nil, tool.Errorf(tool.InvalidArgument, "%s %q is not a baseline name: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
				f.arg, tool.Clip(f.name)).WithSuggestion(`Use a name such as "default" or "before-deploy".`)
		}
	}
	job := &baselineJob{args: a}
	if a.CompareTo == "" {
		return job, nil
	}
	stored, err := s.deps.Baselines.LoadBaseline(ctx, a.CompareTo)
	if errors.Is(err, store.ErrBaselineNotFound) {
		return nil, s.noSuchBaseline(ctx, a.CompareTo)
	}
	if err != nil {
		return nil, tool.Wrap(tool.ExecutionFailed, err, "reading baseline %q: %v", a.CompareTo, err)
	}
	b := health.Baseline{Name: stored.Name, Saved: stored.Saved, Tool: stored.Tool,
		Host: hostinfo.Identity{Hostname: stored.Hostname, BootID: stored.BootID}}
	if err := json.Unmarshal(stored.Data, &b.Snapshot); err != nil {
		return nil, tool.Wrap(tool.ExecutionFailed, err, "baseline %q is unreadable: %v", a.CompareTo, err).
			WithSuggestion(`Save it again with save_as: %q.`, a.CompareTo)
	}
	job.then = &b
	return job, nil
}

// noSuchBaseline is NOT_FOUND naming the baselines there are.
func (s *Set) noSuchBaseline(ctx context.Context, name string) *tool.Error {
	kept, err := s.deps.Baselines.Baselines(ctx)
	if err != nil || len(kept) == 0 {
		return tool.Errorf(tool.NotFound, "no baseline named %q: none is kept yet", name).
			WithSuggestion(`Save one first: perf_snapshot {"save_as": %q} while the host is as usual.`, name)
	}
	names := make([]string, 0, len(kept))
	for _, b := range kept {
		names = append(names, b.Name)
	}
	return tool.Errorf(tool.NotFound, "no baseline named %q; kept, newest first: %s", name, strings.Join(names, ", ")).
		WithSuggestion("Pass compare_to one of the names kept, or save this one first with save_as.")
}

// finish compares snap with the baseline, then saves snap when asked, in
// that order so that a call may compare with a name and replace it.
func (s *Set) finish(ctx context.Context, call *tool.Call, j *baselineJob, snap hostinfo.PerfSnapshot) (*health.BaselineResult, error) {
	if j == nil {
		return nil, nil
	}
	here, err := s.deps.Host.Identity()
	if err != nil {
		call.Warn("this host's boot is unknown, so the baseline is taken as another boot's: %v", err)
	}
	now := time.Now()
	out := &health.BaselineResult{}
	if j.then != nil {
		c := health.Compare(*j.then, snap, here, now)
		out.Compared = &c
	}
	if j.args.SaveAs == "" {
		return out, nil
	}
	snap.CPU.PerCPU = nil // not compared, and a row per CPU on large hosts
	data, err := json.Marshal(snap)
	if err != nil {
		return nil, tool.Wrap(tool.Internal, err, "encoding the baseline: %v", err)
	}
	b := store.Baseline{Name: j.args.SaveAs, Saved: now, Tool: call.Tool, Hostname: here.Hostname, BootID: here.BootID, Data: data}
	dropped, err := s.deps.Baselines.SaveBaseline(ctx, b)
	if err != nil {
		return nil, tool.Wrap(tool.ExecutionFailed, err, "saving baseline %q: %v", b.Name, err)
	}
	kept, err := s.deps.Baselines.Baselines(ctx)
	if err != nil {
		return nil, tool.Wrap(tool.ExecutionFailed, err, "listing baselines: %v", err)
	}
	out.Saved = &health.SavedBaseline{Name: b.Name, SavedAt: now.UTC(), Kept: len(kept), Dropped: dropped}
	if len(dropped) > 0 {
		call.Warn("%d baselines are kept at most: saving %q dropped the oldest, %s", store.MaxBaselines, b.Name, strings.Join(dropped, ", "))
	}
	return out, nil
}
