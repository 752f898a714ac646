package profile

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	pprof "github.com/google/pprof/profile"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
	"github.com/hostmcp/hostmcp/internal/toolsets/profile/window"
)

// workloadEnv makes the re-executed test binary a workload instead of tests.
const workloadEnv = "HOSTMCP_PROFILE_WORKLOAD"

// burnSource is the CPU burner profiled by the tests: a program of its
// own, built with its symbols (go test strips its binaries, which leaves
// perf nothing to name).
const burnSource = `package main

import "fmt"

//go:noinline
func spinForever() {
	for x := 0; ; x++ {
		_ = x * x
	}
}

func main() {
	fmt.Println("ready")
	spinForever()
}
`

// burner is the built burner's path.
var burner string

func TestMain(m *testing.M) {
	window.Main() // perf's workload is this binary, as it is hostmcp in a server
	switch os.Getenv(workloadEnv) {
	case "nap": // sleeps 10 ms at a time, off CPU nearly always
		fmt.Println("ready")
		for {
			time.Sleep(10 * time.Millisecond)
		}
	case "pipe": // blocked reading a pipe the test writes a byte to now and then
		fmt.Println("ready")
		for b := make([]byte, 1); ; {
			if _, err := os.Stdin.Read(b); err != nil {
				os.Exit(0)
			}
		}
	case "waits": // a pipe reader that wakes a futex waiter (offcpu_live_test.go)
		pipeAndFutex()
	}
	dir, err := os.MkdirTemp("", "hostmcp-burn-")
	if err != nil {
		panic(err)
	}
	src := filepath.Join(dir, "burn.go")
	burner = filepath.Join(dir, "burn")
	if err := os.WriteFile(src, []byte(burnSource), 0o644); err != nil {
		panic(err)
	}
	build := exec.Command("go", "build", "-o", burner, src)
	build.Dir, build.Env = dir, append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=")
	if out, err := build.CombinedOutput(); err != nil {
		panic(fmt.Sprintf("building the burner: %v\n%s", err, out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// start runs a workload (the burner, or the test binary as "nap" or
// "pipe"), killed by pid at the end. A pipe workload's stdin gets a byte
// every 200 ms, so each read blocks for that long.
func start(t *testing.T, kind string) int {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	if kind == "spin" {
		cmd = exec.Command(burner)
	}
	cmd.Env = append(os.Environ(), workloadEnv+"="+kind)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	out, _ := cmd.StdoutPipe()
	in, _ := cmd.StdinPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop); _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
		t.Fatalf("workload %s: %q", kind, line)
	}
	if kind == "pipe" {
		go func() {
			tick := time.NewTicker(200 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
					_, _ = in.Write([]byte{'x'})
				}
			}
		}()
	}
	return cmd.Process.Pid
}

func newSet(t *testing.T) *Set {
	t.Helper()
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "perf")
	// Private directories, as a server's: the test sees perf's work
	// directory go, and nothing perf might keep in its home stays around.
	ex, err := execx.New(&execx.Options{Allowed: []string{"perf", "bpftrace"}, Home: t.TempDir(), TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), &store.Options{Path: filepath.Join(t.TempDir(), "hostmcp.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return New(&Deps{Host: hostinfo.New(hostinfo.Roots{}), Exec: ex, Store: st})
}

func run[Out any](t *testing.T, ctx context.Context, d *tool.Def, args any) (Out, *tool.Error) {
	t.Helper()
	return tooltest.Run[Out](t, ctx, d, "test", args)
}

// A CPU profile of a busy process finds it, its hot function, and leaves
// three artifacts that open: collapsed stacks, a pprof profile, an SVG.
func TestCPUProfileLive(t *testing.T) {
	s := newSet(t)
	testutil.ExclusiveLoad(t)
	pid := start(t, "spin")
	out, terr := run[cpuOut](t, context.Background(), s.cpuProfile(), map[string]any{"pid": pid, "duration_seconds": 2, "sample_rate_hz": 199})
	if terr != nil {
		t.Fatal(terr)
	}
	sum := out.Summary
	if out.Mode != "perf" || sum.TotalSamples < 100 || len(sum.Processes) == 0 || sum.Processes[0].PID != pid || sum.Processes[0].Percent < 90 {
		t.Fatalf("profile of a spinning pid %d: %+v", pid, sum)
	}
	if len(sum.TopSelf) == 0 || !strings.Contains(sum.TopSelf[0].Function, "spinForever") {
		t.Errorf("hottest function %+v, want spinForever", sum.TopSelf)
	}
	if len(out.Artifacts) != 3 {
		t.Fatalf("artifacts %+v", out.Artifacts)
	}
	for _, a := range out.Artifacts {
		g, terr := run[getOut](t, context.Background(), s.getArtifact(), map[string]any{"id": a.ID, "limit": 1 << 20})
		if terr != nil || g.Length != a.Size {
			t.Fatalf("%s: %+v %v", a.Type, g, terr)
		}
		switch a.Type {
		case "pprof":
			raw, err := base64.StdEncoding.DecodeString(g.Content)
			if g.Encoding != "base64" || err != nil {
				t.Fatalf("pprof as %s: %v", g.Encoding, err)
			}
			p, err := pprof.Parse(bytes.NewReader(raw))
			if err != nil || len(p.Sample) == 0 {
				t.Fatalf("the pprof artifact does not parse: %v", err)
			}
			if top := goToolPprofTop(t, raw); !strings.Contains(top, "spinForever") {
				t.Errorf("go tool pprof -top does not show spinForever:\n%s", top)
			}
		case "flamegraph":
			if g.Encoding != "text" || a.MIME != "image/svg+xml" || !strings.Contains(g.Content, "spinForever") {
				t.Fatalf("flame graph %s %s", g.Encoding, a.MIME)
			}
			if err := wellFormedXML(g.Content); err != nil {
				t.Errorf("the flame graph is not well-formed XML: %v", err)
			}
		case "collapsed":
			if !strings.Contains(g.Content, "spinForever") {
				t.Fatal("collapsed stacks lack the hot function")
			}
		}
	}
	list, _ := run[listOut](t, context.Background(), s.listArtifacts(), map[string]any{})
	if len(list.Artifacts) != 3 {
		t.Fatalf("listed %+v", list)
	}
	if _, terr := run[getOut](t, context.Background(), s.getArtifact(), map[string]any{"id": "A_20260101T000000Z_0000000000000000"}); terr == nil || terr.Code != tool.ArtifactNotFound {
		t.Fatalf("want ARTIFACT_NOT_FOUND, got %+v", terr)
	}
}

// Two profiles at once: one result and one PROFILER_BUSY.
func TestConcurrentProfilesOneBusy(t *testing.T) {
	s := newSet(t)
	testutil.ExclusiveLoad(t)
	type answer struct {
		out  cpuOut
		terr *tool.Error
	}
	first := make(chan answer, 1)
	go func() {
		out, terr := tooltest.Run[cpuOut](t, context.Background(), s.cpuProfile(), "test", map[string]any{"duration_seconds": 2})
		first <- answer{out, terr}
	}()
	waitForPerf(t)
	if _, terr := run[cpuOut](t, context.Background(), s.cpuProfile(), map[string]any{"duration_seconds": 1}); terr == nil || terr.Code != tool.ProfilerBusy || terr.Suggestion == "" {
		t.Errorf("the second profile: %+v, want PROFILER_BUSY with a suggestion", terr)
	}
	if a := <-first; a.terr != nil || a.out.Summary.TotalSamples == 0 {
		t.Errorf("the first profile: %+v %v", a.out.Summary, a.terr)
	}
}

// Cancelling a 30-second profile after 2 seconds answers within a second;
// the handler then stops perf and removes its work directory.
func TestCancelProfile(t *testing.T) {
	s := newSet(t)
	testutil.ExclusiveLoad(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan *tool.Error, 1)
	go func() {
		_, terr := tooltest.Run[cpuOut](t, ctx, s.cpuProfile(), "test", map[string]any{"duration_seconds": 30})
		done <- terr
	}()
	waitForPerf(t)
	time.Sleep(2 * time.Second)
	cancel()
	start := time.Now()
	select {
	case terr := <-done:
		if terr == nil || terr.Code != tool.Cancelled {
			t.Fatalf("cancelled profile answered %+v", terr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled profile did not return")
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("cancellation answered after %v", took)
	}
	var left []os.DirEntry
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if left, _ = os.ReadDir(s.deps.Exec.TempDir()); !perfRunning(t) && len(left) == 0 {
			break
		}
	}
	if perfRunning(t) {
		t.Error("perf still runs 5 s after cancellation")
	}
	if len(left) != 0 {
		t.Errorf("work files left: %v", left)
	}
}

// waitForPerf waits until this process has a perf child.
func waitForPerf(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !perfRunning(t); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("perf did not start within 10 s")
		}
	}
}

// goToolPprofTop is what `go tool pprof -top` prints for a profile.
func goToolPprofTop(t *testing.T, raw []byte) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "cpu.pb.gz")
	if err := os.WriteFile(f, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "pprof", "-top", f).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof -top: %v\n%s", err, out)
	}
	return string(out)
}

// wellFormedXML reads every token of doc.
func wellFormedXML(doc string) error {
	d := xml.NewDecoder(strings.NewReader(doc))
	for {
		if _, err := d.Token(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// perfRunning reports whether this process has a perf child.
func perfRunning(t *testing.T) bool {
	ents, _ := os.ReadDir("/proc")
	me := fmt.Sprint(os.Getpid())
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if strings.Contains(s, "(perf)") && i > 0 {
			f := strings.Fields(s[i+1:])
			if len(f) > 1 && f[1] == me {
				return true
			}
		}
	}
	return false
}

// Scheduler latency and off-CPU time see a sleeping process and name why
// it was off the CPU.
func TestSchedToolsLive(t *testing.T) {
	s := newSet(t)
	testutil.ExclusiveLoad(t)

	// More busy threads than cores: the spinners wait for a CPU after waking.
	spinners := map[int]bool{}
	for range 2 * runtime.NumCPU() {
		spinners[start(t, "spin")] = true
	}
	lat, terr := run[schedLatencyOut](t, context.Background(), s.schedLatency(), map[string]any{"duration_seconds": 2, "top_n": 100})
	if terr != nil {
		t.Fatal(terr)
	}
	worst := 0.0
	for _, task := range lat.Tasks {
		for sp := range spinners { // the spinning goroutine may be on any of its threads
			if task.TID == sp || s.deps.Host.ThreadOf(task.TID, sp) {
				worst = max(worst, task.MaxDelayMS)
			}
		}
		if task.TID != 0 && s.deps.Host.ThreadOf(task.TID, os.Getpid()) {
			t.Errorf("the measuring process's own thread is listed: %+v", task)
		}
	}
	if worst < 2 {
		t.Errorf("%d spinners on %d CPUs waited at most %.3f ms to run: %+v", len(spinners), runtime.NumCPU(), worst, lat)
	}

	// A program blocked on a pipe: its time off CPU is sleeping, system-wide
	// and for its pid alone, whether measured with eBPF or, where eBPF
	// cannot run, with perf sched.
	reader := start(t, "pipe")
	perfOnly := tool.New(tool.Spec{Name: "perf_offcpu_profile", Kind: tool.ReadOnly, Programs: true, Title: "Off-CPU time, perf sched only", Description: "The perf sched path."},
		func(ctx context.Context, call *tool.Call, in schedIn) (offCPUOut, error) {
			out, err := s.offCPUPerf(ctx, call, in)
			return finishOffCPU(out, in), err
		})
	for _, d := range []*tool.Def{s.offCPU(), perfOnly} {
		for _, args := range []map[string]any{{"duration_seconds": 2, "top_n": 100}, {"duration_seconds": 2, "pid": reader}} {
			off, terr := run[offCPUOut](t, context.Background(), d, args)
			if terr != nil {
				t.Fatal(terr)
			}
			var blocked float64
			listed := false
			for _, task := range off.Tasks {
				if args["pid"] != nil && task.PID != reader {
					t.Errorf("%s: pid filter let in %+v", off.Mechanism, task)
				}
				if task.PID == os.Getpid() || task.Task == "perf-exec" {
					t.Errorf("%s %v: the measurement's own thread is listed: %+v", off.Mechanism, args, task)
				}
				if task.PID == reader {
					blocked += task.ByState["sleeping"]
					listed = true
				}
			}
			// System-wide with eBPF, every thread woken in the window is off
			// the CPU for about all of it: the reader may rank past top_n.
			if (listed || args["pid"] != nil || off.Mechanism == mechanismPerf) && blocked < 1200 {
				t.Errorf("%s %v: a process blocked on a pipe for 2 s slept %.0f ms off CPU: %+v", off.Mechanism, args, blocked, off)
			}
			// The spinners still crowd the CPUs: system-wide, their wait for
			// one is preempted time, and a finding says so.
			if args["pid"] == nil {
				if ms := off.ByState["preempted"]; ms < 500 || !slices.ContainsFunc(off.Findings, func(f string) bool { return strings.Contains(f, "CPU contention") }) {
					t.Errorf("%s: %d spinners on %d CPUs: %.0f ms preempted, findings %q", off.Mechanism, len(spinners), runtime.NumCPU(), ms, off.Findings)
				}
			}
		}
	}
}

// Block I/O latency: snapshot figures, and a traced histogram of direct
// writes on the root disk.
func TestIOLatencyLive(t *testing.T) {
	s := newSet(t)
	testutil.RequireBinary(t, "bpftrace")
	testutil.ExclusiveLoad(t)
	snap, terr := run[ioLatencyOut](t, context.Background(), s.ioLatency(), map[string]any{"duration_seconds": 1})
	if terr != nil || snap.Mode != "snapshot" || len(snap.Devices) == 0 || snap.Devices[0].Snapshot == nil {
		t.Fatalf("%+v %v", snap, terr)
	}
	dir, err := os.MkdirTemp("/var/tmp", "hostmcp-io-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	stop := make(chan struct{})
	go func() { // synchronous direct writes, a few hundred a second
		f, err := os.OpenFile(filepath.Join(dir, "f"), os.O_CREATE|os.O_WRONLY|syscall.O_DIRECT|syscall.O_DSYNC, 0o600)
		if err != nil {
			return
		}
		defer f.Close()
		buf, _ := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			_, _ = f.WriteAt(buf, int64(i%256)*4096)
		}
	}()
	defer close(stop)
	tr, terr := run[ioLatencyOut](t, context.Background(), s.ioLatency(), map[string]any{"duration_seconds": 2, "mode": "trace"})
	if terr != nil {
		t.Fatal(terr)
	}
	var n uint64
	for _, d := range tr.Devices {
		if d.HistogramUS != nil {
			n += d.HistogramUS.Count
			if d.HistogramUS.P99 < d.HistogramUS.P50 {
				t.Errorf("%s: p99 %d below p50 %d", d.Device, d.HistogramUS.P99, d.HistogramUS.P50)
			}
		}
	}
	if n < 50 || !strings.Contains(tr.Mechanism, "block_rq_issue") {
		t.Fatalf("traced %d requests: %+v", n, tr)
	}
}
