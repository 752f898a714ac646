package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// startBurner builds testdata/burn and runs it with args; it spins in
// main.burnForView (or, with "nap", sleeps in main.napForView) until the
// test's end, when it is killed by its pid.
func startBurner(t *testing.T, args ...string) int {
	t.Helper()
	return runBurner(t, buildBurner(t), args...)
}

// buildBurner builds testdata/burn, for tests that start several.
func buildBurner(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "burn")
	build := exec.Command("go", "build", "-o", bin, "./testdata/burn")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the burner: %v\n%s", err, out)
	}
	return bin
}

// runBurner starts the built burner with args, as startBurner does.
func runBurner(t *testing.T, bin string, args ...string) int {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
		t.Fatalf("the burner said %q", line)
	}
	return cmd.Process.Pid
}

// linkedView is the ui:// page a tool points to in tools/list, if any.
func linkedView(tl *mcp.Tool) string {
	ui, _ := tl.Meta["ui"].(map[string]any)
	uri, _ := ui["resourceUri"].(string)
	return uri
}

// readView reads the page of the view through the client, as a host does
// before it renders it.
func readView(t *testing.T, ctx context.Context, cs *mcp.ClientSession) []byte {
	t.Helper()
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: profileView})
	if err != nil {
		t.Fatalf("resources/read %s: %v", profileView, err)
	}
	c := rr.Contents[0]
	if c.MIMEType != appsMIME || !strings.HasPrefix(c.Text, "<!DOCTYPE html>") {
		t.Fatalf("resources/read %s: MIME %q, text %.60q", profileView, c.MIMEType, c.Text)
	}
	return []byte(c.Text)
}

// drawnFlame is a flame graph as the view drew it: each frame's name and
// value (data attributes) and its rectangle as laid out, relative to the
// drawing, in CSS pixels.
type drawnFlame struct {
	Width  float64 `json:"width"`
	Total  float64 `json:"total"`
	Focus  string  `json:"focus"`
	Frames []struct {
		Name  string  `json:"name"`
		Value float64 `json:"value"`
		Depth int     `json:"depth"`
		X     float64 `json:"x"`
		W     float64 `json:"w"`
		Label string  `json:"label"`
	} `json:"frames"`
	Notes []string `json:"notes"`
}

const readFlame = `(() => {
  const svg = document.querySelector("svg.flame");
  const box = svg.getBoundingClientRect();
  return {
    width: box.width, total: Number(svg.dataset.total), focus: svg.dataset.focus,
    frames: Array.from(svg.querySelectorAll("g.frame")).map((g) => {
      const r = g.querySelector("rect").getBoundingClientRect();
      const t = g.querySelector("text");
      return { name: g.dataset.name, value: Number(g.dataset.value), depth: Number(g.dataset.depth),
        x: r.left - box.left, w: r.width, label: t ? t.textContent : "" };
    }),
    notes: Array.from(document.querySelectorAll("p.note")).map((p) => p.textContent),
  };
})()`

// checkWidths checks that every frame is as wide as its share of what the
// drawing shows: its value over the focused frame's, of the full width.
func checkWidths(t *testing.T, f drawnFlame, focusValue float64) {
	t.Helper()
	if len(f.Frames) == 0 || f.Width < 200 {
		t.Fatalf("no flame graph drawn: %d frames, %.0f px wide", len(f.Frames), f.Width)
	}
	for _, fr := range f.Frames {
		want := math.Min(fr.Value/focusValue, 1) * f.Width
		if math.Abs(fr.W-want) > 1 {
			t.Errorf("frame %q of %.0f: %.2f px wide, want %.2f (%.0f of %.0f, of %.0f px)", fr.Name, fr.Value, fr.W, want, fr.Value, focusValue, f.Width)
		}
	}
}

// outermost sums, per function, the values of its drawn frames that have
// no frame of the same name below them: the samples whose stacks hold it.
func outermost(f drawnFlame) map[string]float64 {
	type node struct {
		i      int
		parent *node
	}
	byDepth := map[int][]*node{}
	for i, fr := range f.Frames {
		byDepth[fr.Depth] = append(byDepth[fr.Depth], &node{i: i})
	}
	for d, nodes := range byDepth {
		for _, n := range nodes {
			c := f.Frames[n.i]
			for _, p := range byDepth[d-1] {
				pf := f.Frames[p.i]
				if c.X >= pf.X-0.05 && c.X+c.W <= pf.X+pf.W+0.05 {
					n.parent = p
					break
				}
			}
		}
	}
	sums := map[string]float64{}
	for _, nodes := range byDepth {
		for _, n := range nodes {
			name := f.Frames[n.i].Name
			nested := false
			for p := n.parent; p != nil; p = p.parent {
				if f.Frames[p.i].Name == name {
					nested = true
				}
			}
			if !nested {
				sums[name] += f.Frames[n.i].Value
			}
		}
	}
	return sums
}

// collapsedTotals reads folded stacks ("root;...;leaf count"): the total
// count, and per frame the count of the stacks that hold it.
func collapsedTotals(t *testing.T, text string) (float64, map[string]float64) {
	t.Helper()
	var total float64
	per := map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		sp := strings.LastIndexByte(line, ' ')
		var n float64
		if err := json.Unmarshal([]byte(line[sp+1:]), &n); sp < 0 || err != nil {
			t.Fatalf("collapsed line %q", line)
		}
		total += n
		seen := map[string]bool{}
		for _, f := range strings.Split(line[:sp], ";") {
			if !seen[f] {
				seen[f] = true
				per[f] += n
			}
		}
	}
	return total, per
}

// viewedTool connects a client that renders MCP Apps, for at most d, and
// checks that tool points to the view: how every view test starts.
func viewedTool(t *testing.T, tool string, d time.Duration) (context.Context, *mcp.ClientSession, map[string]*mcp.Tool) {
	t.Helper()
	requireChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	cs := newEnv(t, "").connectApps(t, ctx)
	tools := listTools(t, ctx, cs)
	if got := linkedView(tools[tool]); got != profileView {
		t.Fatalf("%s points to %q, want %q", tool, got, profileView)
	}
	return ctx, cs, tools
}

// The view, rendered by a host in Chromium with the result of a real
// perf_cpu_profile, draws the profile's hot functions as frames as wide as
// their share of the samples, reading every stack from the profile's
// collapsed artifact through the host; zooms into a frame on a click; and,
// with a host that reads no resources for it, draws the hottest stacks
// the result carries. It fetches nothing itself.
func TestProfileViewDrawsARealCPUProfile(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "perf")
	ctx, cs, tools := viewedTool(t, "perf_cpu_profile", 3*time.Minute)
	page := readView(t, ctx, cs)

	pid := startBurner(t)
	args := map[string]any{"duration_seconds": 2, "pid": pid}
	env, res := call(t, ctx, cs, tools, "perf_cpu_profile", args)
	var data struct {
		Mode    string `json:"mode"`
		Summary struct {
			TotalSamples float64 `json:"total_samples"`
			TopSelf      []struct {
				Function string  `json:"function"`
				Samples  float64 `json:"samples"`
			} `json:"top_functions_self"`
			TopTotal []struct {
				Function string  `json:"function"`
				Samples  float64 `json:"samples"`
				Percent  float64 `json:"percent"`
			} `json:"top_functions_total"`
			HotStacks []struct {
				Stack   string  `json:"stack"`
				Samples float64 `json:"samples"`
			} `json:"hottest_stacks"`
		} `json:"summary"`
		Artifacts []struct {
			Type string `json:"type"`
			URI  string `json:"uri"`
		} `json:"artifacts"`
	}
	if err := json.Unmarshal(env.Data, &data); err != nil || !env.Success || data.Mode != "perf" {
		t.Fatalf("perf_cpu_profile: %v %+v %s", err, env.Error, env.Data)
	}
	if len(data.Summary.TopSelf) == 0 || data.Summary.TopSelf[0].Function != "main.burnForView" {
		t.Fatalf("the burner's profile does not have main.burnForView on top: %+v", data.Summary.TopSelf)
	}
	collapsedURI := ""
	for _, a := range data.Artifacts {
		if a.Type == "collapsed" {
			collapsedURI = a.URI
		}
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: collapsedURI})
	if err != nil {
		t.Fatalf("resources/read %s: %v", collapsedURI, err)
	}
	total, perFrame := collapsedTotals(t, rr.Contents[0].Text)
	if total != data.Summary.TotalSamples {
		t.Fatalf("the collapsed stacks hold %.0f samples, the summary %.0f", total, data.Summary.TotalSamples)
	}

	h := newAppHost(t, cs)
	hostContext := map[string]any{"theme": "light", "displayMode": "inline", "containerDimensions": map[string]any{"width": 1000, "maxHeight": 4000}}
	tab := h.show(page, appHostConfig{ToolInput: args, ToolResult: res, HostCapabilities: map[string]any{"serverResources": map[string]any{}}, HostContext: hostContext},
		`document.querySelector("svg.flame g.frame")`)
	var drawn drawnFlame
	if err := h.inView(tab, readFlame, &drawn); err != nil {
		t.Fatal(err)
	}
	h.screenshot(tab, "cpu-profile.png")
	if drawn.Total != total || drawn.Focus != "all" {
		t.Errorf("the flame graph draws %.0f samples from %q, want all %.0f", drawn.Total, drawn.Focus, total)
	}
	if !slices.ContainsFunc(drawn.Notes, func(n string) bool { return strings.Contains(n, "Every sampled stack, from the artifact") }) {
		t.Errorf("the view does not say it drew every stack from the artifact: %q", drawn.Notes)
	}
	checkWidths(t, drawn, total)
	sums := outermost(drawn)
	checked := 0
	for _, f := range data.Summary.TopTotal {
		if f.Percent < 1 {
			continue
		}
		checked++
		if sums[f.Function] != perFrame[f.Function] || sums[f.Function] != f.Samples {
			t.Errorf("%s: drawn as %.0f samples; the collapsed stacks hold it in %.0f, the summary in %.0f", f.Function, sums[f.Function], perFrame[f.Function], f.Samples)
		}
	}
	if checked == 0 {
		t.Error("no hot function to check")
	}
	for _, fr := range drawn.Frames {
		if fr.Name == "main.burnForView" && fr.Label == "" {
			t.Errorf("main.burnForView is %.0f px wide and unlabelled", fr.W)
		}
	}
	checkConversation(t, h, tab, collapsedURI)

	// A click on the hot function zooms to it: it fills the width.
	var at struct{ X, Y float64 }
	if err := h.inView(tab, `(() => { const r = [...document.querySelectorAll("svg.flame g.frame")].find((g) => g.dataset.name === "main.burnForView").querySelector("rect").getBoundingClientRect(); return {X: r.left + 4, Y: r.top + r.height / 2}; })()`, &at); err != nil {
		t.Fatal(err)
	}
	frameAt, err := chromedp.Run(tab, chromedp.Evaluate[struct{ X, Y float64 }](`(() => { const r = document.getElementById("view").getBoundingClientRect(); return {X: r.left + 1, Y: r.top + 1}; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.MouseClickXY(frameAt.X+at.X, frameAt.Y+at.Y)); err != nil {
		t.Fatal(err)
	}
	h.waitInView(tab, `document.querySelector("svg.flame").dataset.focus === "main.burnForView"`)
	var zoomed drawnFlame
	if err := h.inView(tab, readFlame, &zoomed); err != nil {
		t.Fatal(err)
	}
	checkWidths(t, zoomed, sums["main.burnForView"])
	h.screenshot(tab, "cpu-profile-zoomed.png")

	// A host that does not read resources for its views: the hottest
	// stacks of the result, and no resources/read.
	tab = h.show(page, appHostConfig{ToolInput: args, ToolResult: res, HostCapabilities: map[string]any{}, HostContext: hostContext},
		`document.querySelector("svg.flame g.frame")`)
	var hottest drawnFlame
	if err := h.inView(tab, readFlame, &hottest); err != nil {
		t.Fatal(err)
	}
	var hotTotal float64
	for _, s := range data.Summary.HotStacks {
		hotTotal += s.Samples
	}
	if hottest.Total != hotTotal {
		t.Errorf("without resources the view draws %.0f samples, want the %.0f of the hottest stacks", hottest.Total, hotTotal)
	}
	checkWidths(t, hottest, hotTotal)
	for _, m := range h.viewMessages(tab) {
		if m.Method == "resources/read" {
			t.Errorf("the view asked a host without serverResources to read %s", m.Params)
		}
	}
	h.screenshot(tab, "cpu-profile-hottest-stacks.png")
}

// checkConversation checks what the view said to the host, as the
// extension orders it: ui/initialize with its revision, then initialized,
// its size, and a resources/read of the collapsed stacks (wantRead, unless
// empty); what the browser fetched (the host's own page, its
// configuration, the view, and the host's proxied read: nothing of the
// view's own); and that the browser reported no error.
func checkConversation(t *testing.T, h *appHost, tab context.Context, wantRead string) {
	t.Helper()
	msgs := h.viewMessages(tab)
	var methods []string
	for _, m := range msgs {
		methods = append(methods, m.Method)
	}
	if len(msgs) < 2 || msgs[0].Method != "ui/initialize" || msgs[1].Method != "ui/notifications/initialized" {
		t.Errorf("the view's messages: %q, want ui/initialize then ui/notifications/initialized first", methods)
	} else {
		var p struct {
			ProtocolVersion string         `json:"protocolVersion"`
			AppInfo         map[string]any `json:"appInfo"`
			AppCapabilities map[string]any `json:"appCapabilities"`
		}
		if err := json.Unmarshal(msgs[0].Params, &p); err != nil || p.ProtocolVersion != "2026-01-26" || p.AppInfo["name"] == nil || p.AppCapabilities == nil {
			t.Errorf("ui/initialize params: %s", msgs[0].Params)
		}
	}
	if !slices.Contains(methods, "ui/notifications/size-changed") {
		t.Errorf("the view never told the host its size: %q", methods)
	}
	if wantRead != "" && !slices.ContainsFunc(msgs, func(m struct {
		ID     any             `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}) bool {
		return m.Method == "resources/read" && strings.Contains(string(m.Params), wantRead)
	}) {
		t.Errorf("the view did not ask the host to read %s: %q", wantRead, methods)
	}
	for _, p := range h.requested() {
		if !slices.Contains([]string{"/host", "/config", "/view", "/resources/read", "/favicon.ico"}, p) {
			t.Errorf("the browser asked for %s", p)
		}
	}
	if p := h.browserProblems(); len(p) > 0 {
		t.Errorf("the browser reported: %q", p)
	}
}

// drawnBars are the histogram bars the view drew, per histogram.
type drawnBars []struct {
	Key  string `json:"key"`
	Bars []struct {
		Count float64 `json:"count"`
		W     float64 `json:"w"`
		Track float64 `json:"track"`
	} `json:"bars"`
}

const readBars = `Array.from(document.querySelectorAll(".hist")).map((h) => ({
  key: h.dataset.key || "",
  bars: Array.from(h.querySelectorAll(".bar")).map((b) => ({ count: Number(b.dataset.count),
    w: b.getBoundingClientRect().width, track: b.parentElement.getBoundingClientRect().width })),
}))`

// checkBars checks that each bar is as long as its count's share of the
// largest count among its neighbours (at least a pixel when it has any).
func checkBars(t *testing.T, key string, bars drawnBars) {
	t.Helper()
	for _, h := range bars {
		if key != "" && h.Key != key {
			continue
		}
		most := 0.0
		for _, b := range h.Bars {
			most = math.Max(most, b.Count)
		}
		for _, b := range h.Bars {
			want := b.Count / math.Max(most, 1e-9) * b.Track
			if b.Count > 0 {
				want = math.Max(want, 1)
			}
			if math.Abs(b.W-want) > 1 {
				t.Errorf("histogram %q: the bar of %.0f is %.2f px, want %.2f (of %.0f, largest %.0f)", h.Key, b.Count, b.W, want, b.Track, most)
			}
		}
	}
}

// The view draws a real run queue latency histogram (hostmcp's eBPF
// program) as a bar per bucket, as long as its count's share.
func TestProfileViewDrawsARealLatencyHistogram(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireBTF(t)
	ctx, cs, tools := viewedTool(t, "perf_runq_latency", 2*time.Minute)
	startBurner(t) // something that waits for a CPU now and then
	args := map[string]any{"duration_seconds": 1}
	env, res := call(t, ctx, cs, tools, "perf_runq_latency", args)
	var data struct {
		Histograms []struct {
			Key     string `json:"key"`
			Buckets []struct {
				Count float64 `json:"count"`
			} `json:"buckets"`
		} `json:"histograms"`
	}
	if err := json.Unmarshal(env.Data, &data); err != nil || !env.Success || len(data.Histograms) == 0 || len(data.Histograms[0].Buckets) == 0 {
		t.Fatalf("perf_runq_latency: %v %+v %s", err, env.Error, env.Data)
	}
	h := newAppHost(t, cs)
	tab := h.show(readView(t, ctx, cs), appHostConfig{ToolInput: args, ToolResult: res, HostCapabilities: map[string]any{}, HostContext: map[string]any{"theme": "dark"}},
		`document.querySelector(".hist .bar")`)
	var bars drawnBars
	if err := h.inView(tab, readBars, &bars); err != nil {
		t.Fatal(err)
	}
	h.screenshot(tab, "runq-latency.png")
	hist := data.Histograms[0]
	if len(bars) == 0 || bars[0].Key != hist.Key || len(bars[0].Bars) != len(hist.Buckets) {
		t.Fatalf("drawn %+v, want %d bars for %q", bars, len(hist.Buckets), hist.Key)
	}
	for i, b := range hist.Buckets {
		if bars[0].Bars[i].Count != b.Count {
			t.Errorf("bucket %d: drawn %.0f, the result says %.0f", i, bars[0].Bars[i].Count, b.Count)
		}
	}
	checkBars(t, hist.Key, bars[:1])
	checkConversation(t, h, tab, "")
}

// The page's own Content-Security-Policy allows its script by hash alone: a
// page whose script is not byte for byte the one hashed runs nothing, and
// the browser says why. The page as served draws a real perf_io_latency
// answer (which needs no privilege) under the host's policy too.
func TestProfileViewRunsOnlyItsOwnScript(t *testing.T) {
	requireChromium(t)
	ctx := testCtx(t)
	e := newEnv(t, "")
	cs := e.connectApps(t, ctx)
	tools := listTools(t, ctx, cs)
	args := map[string]any{"duration_seconds": 1}
	env, res := call(t, ctx, cs, tools, "perf_io_latency", args)
	var data struct {
		Devices []struct {
			Device string `json:"device"`
		} `json:"devices"`
	}
	if err := json.Unmarshal(env.Data, &data); err != nil || !env.Success {
		t.Fatalf("perf_io_latency: %v %+v", err, env.Error)
	}
	page := readView(t, ctx, cs)
	h := newAppHost(t, cs)
	config := appHostConfig{ToolInput: args, ToolResult: res, HostCapabilities: map[string]any{}, HostContext: map[string]any{}}
	tab := h.show(page, config, `document.querySelector("h2")`)
	var bars drawnBars
	if err := h.inView(tab, readBars, &bars); err != nil {
		t.Fatal(err)
	}
	if len(data.Devices) > 0 && (len(bars) == 0 || len(bars[0].Bars) != len(data.Devices)) {
		t.Errorf("%d devices, drawn %+v", len(data.Devices), bars)
	}
	checkBars(t, "", bars)
	checkConversation(t, h, tab, "")
	h.screenshot(tab, "io-latency.png")
	// The header names the tool and host from the result's _meta, where
	// the call's provenance is.
	var header string
	if err := h.inView(tab, `document.getElementById("title").textContent + " | " + document.getElementById("meta").textContent`, &header); err != nil {
		t.Fatal(err)
	}
	prov, _ := res.Meta[provenanceKey].(map[string]any)
	if host, _ := prov["host"].(string); host == "" || !strings.HasPrefix(header, "Block I/O latency | perf_io_latency · "+host+" · ") {
		t.Errorf("the view's header is %q, want the tool and host of _meta %v", header, prov)
	}

	altered := []byte(strings.Replace(string(page), `"use strict";`, `"use strict"; `, 1))
	if string(altered) == string(page) {
		t.Fatal("the page's script does not start as expected")
	}
	tab = h.show(altered, config, "")
	deadline := time.Now().Add(30 * time.Second)
	for !slices.ContainsFunc(h.browserProblems(), func(p string) bool { return strings.Contains(p, "Content Security Policy") }) {
		if time.Now().After(deadline) {
			t.Fatalf("an altered script ran or failed unseen: the browser reported %q", h.browserProblems())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if msgs := h.viewMessages(tab); len(msgs) != 0 {
		t.Errorf("the altered page's script ran: it sent %d messages", len(msgs))
	}
}
