package system

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/sampler"
	"github.com/hostmcp/hostmcp/internal/tool"
)

func TestSnapshotLive(t *testing.T) {
	d := New(&Deps{Host: hostinfo.New(hostinfo.Roots{})}).snapshot()
	out := callSnapshot(t, d)
	if out.CPUPercent < 0 || out.CPUPercent > 100 || out.MemTotalMB == 0 || len(out.Disks) == 0 || out.ShortSummary == "" {
		t.Errorf("implausible snapshot: %+v", out)
	}
	w := out.CPUWindow
	if w.Source != windowCall || w.Seconds < 0.09 || !w.End.After(w.Start) {
		t.Errorf("without a sampler the call samples 100 ms itself; window %+v", w)
	}
}

// With the sampler, the first call starts it and waits for its first
// window, saying so; the next answers from the sampler's kept readings
// without a window of its own, and states which.
func TestSnapshotFromSampler(t *testing.T) {
	host := hostinfo.New(hostinfo.Roots{})
	smp := sampler.New(host, nil)
	t.Cleanup(smp.Close)
	d := New(&Deps{Host: host, Sampler: smp}).snapshot()

	first := callSnapshot(t, d)
	if w := first.CPUWindow; w.Source != windowFirst || w.Seconds < 0.09 || !w.End.After(w.Start) {
		t.Errorf("first call: window %+v, want first_window of 100 ms", w)
	}
	kept, err := smp.Window(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	next := callSnapshot(t, d)
	w := next.CPUWindow
	if w.Source != windowSampler {
		t.Errorf("second call: source %q, want sampler", w.Source)
	}
	// Answered from kept readings: the window ended no later than the
	// sampler's newest reading taken after the call began, and began
	// where the kept window did or later (the ring slid).
	if w.Start.Before(kept.Start) || w.End.Sub(w.Start).Seconds() < 0.09 || w.AgeSeconds < 0 {
		t.Errorf("second call: window %+v; the sampler's was %v-%v", w, kept.Start, kept.End)
	}
	if next.CPUPercent != figures.Round1(next.CPUPercent) || next.CPUPercent < 0 || next.CPUPercent > 100 || next.MemTotalMB == 0 {
		t.Errorf("implausible snapshot: %+v", next.Snapshot)
	}
}

func callSnapshot(t *testing.T, d *tool.Def) snapshotOut {
	t.Helper()
	res := (&tool.Runner{}).Run(context.Background(), tool.Invocation{Def: d})
	if res.Err != nil {
		t.Fatalf("sys_snapshot failed: %s", res.JSON)
	}
	if err := tool.ValidateEnvelope(d, res.JSON); err != nil {
		t.Fatalf("answer does not match outputSchema: %v", err)
	}
	var out snapshotOut
	if err := json.Unmarshal(res.Envelope.Data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// A cancelled call stops inside the sampling window.
func TestSnapshotCancelled(t *testing.T) {
	d := New(&Deps{Host: hostinfo.New(hostinfo.Roots{})}).snapshot()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := (&tool.Runner{}).Run(ctx, tool.Invocation{Def: d})
	if res.Err == nil || res.Err.Code != tool.Cancelled {
		t.Fatalf("want CANCELLED, got %s", res.JSON)
	}
}

// A call cancelled while the sampler takes its first window stops waiting.
func TestSnapshotCancelledWaitingForSampler(t *testing.T) {
	host := hostinfo.New(hostinfo.Roots{})
	smp := sampler.New(host, &sampler.Options{FirstWindow: time.Hour})
	t.Cleanup(smp.Close)
	d := New(&Deps{Host: host, Sampler: smp}).snapshot()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := (&tool.Runner{}).Run(ctx, tool.Invocation{Def: d})
	if res.Err == nil || res.Err.Code != tool.Cancelled {
		t.Fatalf("want CANCELLED, got %s", res.JSON)
	}
}
