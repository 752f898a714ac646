package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// The view draws a real off-CPU profile of a process that naps as a flame
// graph of milliseconds waited: a frame per listed thread, as wide as the
// time its waits took, over the kernel stacks it waited on.
func TestProfileViewDrawsARealOffCPUProfile(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "perf")
	ctx, cs, tools := viewedTool(t, "perf_offcpu_profile", 3*time.Minute)
	pid := startBurner(t, "nap")
	h := newAppHost(t, cs)
	args := map[string]any{"duration_seconds": 2, "pid": pid}
	env, res := call(t, ctx, cs, tools, "perf_offcpu_profile", args)
	var data struct {
		Tasks []struct {
			Task     string  `json:"task"`
			TID      int     `json:"tid"`
			OffCPUMS float64 `json:"off_cpu_ms"`
			Waits    []struct {
				TotalMS float64 `json:"total_ms"`
			} `json:"waits"`
		} `json:"tasks"`
	}
	if err := json.Unmarshal(env.Data, &data); err != nil || !env.Success || len(data.Tasks) == 0 {
		t.Fatalf("perf_offcpu_profile: %v %+v %s", err, env.Error, env.Data)
	}
	// What each listed thread waited, as the view is to draw it: the
	// sum of its waits, or its whole time off the CPU when the result
	// gives no waits (perf sched).
	want := map[string]float64{}
	var total float64
	for _, tk := range data.Tasks {
		name := fmt.Sprintf("%s (%d)", tk.Task, tk.TID)
		if len(tk.Waits) == 0 {
			want[name] += tk.OffCPUMS
			continue
		}
		for _, w := range tk.Waits {
			if w.TotalMS > 0 {
				want[name] += w.TotalMS
			}
		}
	}
	for _, v := range want {
		total += v
	}
	tab := h.show(readView(t, ctx, cs), appHostConfig{ToolInput: args, ToolResult: res, HostCapabilities: map[string]any{}, HostContext: map[string]any{"theme": "light"}},
		`document.querySelector("svg.flame g.frame")`)
	var drawn drawnFlame
	if err := h.inView(tab, readFlame, &drawn); err != nil {
		t.Fatal(err)
	}
	h.screenshot(tab, "offcpu-profile.png")
	if d := drawn.Total - total; d > 1e-6*total || d < -1e-6*total {
		t.Errorf("the flame graph draws %v ms, the result's waits sum to %v ms", drawn.Total, total)
	}
	checkWidths(t, drawn, drawn.Total)
	threads, napper := 0, false
	for _, fr := range drawn.Frames {
		if fr.Depth != 1 {
			continue
		}
		threads++
		napper = napper || strings.HasPrefix(fr.Name, "burn (")
		w, ok := want[fr.Name]
		if !ok || fr.Value-w > 1e-6*w || w-fr.Value > 1e-6*w {
			t.Errorf("thread frame %q drawn as %v ms, the result says %v (listed: %v)", fr.Name, fr.Value, w, ok)
		}
	}
	if !napper {
		t.Errorf("no thread of the napper drawn among %d thread frames; the result lists %v", threads, want)
	}
	checkConversation(t, h, tab, "")
}

// The view draws a real scheduling delay answer as a bar per task, as long
// as its longest wait for a CPU.
func TestProfileViewDrawsRealSchedulingDelays(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "perf")
	ctx, cs, tools := viewedTool(t, "perf_sched_latency", 3*time.Minute)
	startBurner(t) // something that competes for a CPU
	h := newAppHost(t, cs)
	args := map[string]any{"duration_seconds": 1}
	env, res := call(t, ctx, cs, tools, "perf_sched_latency", args)
	var data struct {
		Tasks []struct {
			MaxDelayMS float64 `json:"max_delay_ms"`
		} `json:"tasks"`
	}
	if err := json.Unmarshal(env.Data, &data); err != nil || !env.Success || len(data.Tasks) == 0 {
		t.Fatalf("perf_sched_latency: %v %+v %s", err, env.Error, env.Data)
	}
	tab := h.show(readView(t, ctx, cs), appHostConfig{ToolInput: args, ToolResult: res, HostCapabilities: map[string]any{}, HostContext: map[string]any{"theme": "dark"}},
		`document.querySelector(".hist .bar")`)
	var bars drawnBars
	if err := h.inView(tab, readBars, &bars); err != nil {
		t.Fatal(err)
	}
	h.screenshot(tab, "sched-latency.png")
	if len(bars) == 0 || len(bars[0].Bars) != len(data.Tasks) {
		t.Fatalf("drawn %+v, want a bar for each of %d tasks", bars, len(data.Tasks))
	}
	for i, tk := range data.Tasks {
		if bars[0].Bars[i].Count != tk.MaxDelayMS {
			t.Errorf("task %d: drawn %v ms, the result says %v", i, bars[0].Bars[i].Count, tk.MaxDelayMS)
		}
	}
	checkBars(t, "", bars)
	checkConversation(t, h, tab, "")
}
