package e2e

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/bpfprog/bpfprogtest"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// A server run as an ordinary user, on a host at perf_event_paranoid 2,
// refuses the tools that need more before it starts anything:
// perf_cpu_profile system-wide, a trace tool and bpftrace_exec_program each
// answer PERMISSION_DENIED with what is missing, the value the kernel holds
// (read by the test in the same window), and the /proc-based tool to use
// instead; and the server starts no program meanwhile, as an exec tracer of
// the test's own sees. The control: perf_cpu_profile of a process of the
// server's own user is allowed at paranoid 2 (user space only, with a
// warning saying so), and the tracer sees the perf it starts.
func TestUnprivilegedServerRefusesBeforeStarting(t *testing.T) {
	testutil.RequireBinary(t, "perf")
	testutil.RequireBinary(t, "bpftrace")
	testutil.RequireBTF(t)
	e := newNobodyEnv(t)
	testutil.PerfParanoid(t, 2)
	ctx := testCtx(t)
	cs, server := serveAsNobody(t, ctx, e, -1)
	tools := listTools(t, ctx, cs)
	execs := watchExecs(t, server.Process.Pid)

	paranoid := strconv.Itoa(testutil.ReadParanoid(t))
	refusals := []struct {
		tool    string
		args    map[string]any
		missing []string // in the message: what is missing and the value the kernel holds
		instead string   // in the suggestion
	}{
		{"perf_cpu_profile", map[string]any{"duration_seconds": 1}, []string{"perf_event_paranoid=" + paranoid, "CAP_PERFMON"}, "proc_list"},
		{"perf_runq_latency", map[string]any{"duration_seconds": 1}, []string{"CAP_BPF", "uid 65534"}, "perf_thread_profile"},
		{"bpftrace_exec_program", map[string]any{"program": "BEGIN { exit(); }"}, []string{"root", "uid 65534"}, "perf_use_check"},
	}
	for _, r := range refusals {
		env, _ := call(t, ctx, cs, tools, r.tool, r.args)
		if env.Success || env.Error == nil || env.Error.Code != "PERMISSION_DENIED" {
			t.Errorf("%s as nobody at paranoid %s: want PERMISSION_DENIED, got %+v", r.tool, paranoid, env.Error)
			continue
		}
		for _, m := range r.missing {
			if !strings.Contains(env.Error.Message, m) {
				t.Errorf("%s: the message does not say %q: %s", r.tool, m, env.Error.Message)
			}
		}
		if !strings.Contains(env.Error.Suggestion, r.instead) {
			t.Errorf("%s: the suggestion does not name %s: %s", r.tool, r.instead, env.Error.Suggestion)
		}
		t.Logf("%s: %s: %s %s", r.tool, env.Error.Code, env.Error.Message, env.Error.Suggestion)
	}
	// perf_info, which an agent calls first, says the same of each.
	env, _ := call(t, ctx, cs, tools, "perf_info", map[string]any{})
	var info struct {
		Tools []struct {
			Tool    string `json:"tool"`
			Use     string `json:"use"`
			Ready   bool   `json:"ready"`
			Missing string `json:"missing"`
		} `json:"privileged_tools"`
	}
	mustData(t, env, &info)
	ready := map[string]bool{}
	for _, r := range info.Tools {
		ready[r.Tool+"/"+r.Use] = r.Ready
	}
	for use, want := range map[string]bool{"perf_cpu_profile/system-wide": false, "perf_cpu_profile/of one process": true, "perf_runq_latency/": false, "bpftrace_exec_program/": false} {
		if got, ok := ready[use]; !ok || got != want {
			t.Errorf("perf_info says %s ready: %v (listed: %v), want %v", use, got, ok, want)
		}
	}
	refusedBy := monotonic()
	if now := strconv.Itoa(testutil.ReadParanoid(t)); now != paranoid {
		t.Fatalf("perf_event_paranoid changed during the test (%s, then %s): another test moved it", paranoid, now)
	}

	// The control: the user's own process may be profiled at paranoid 2.
	sleeper := asNobody(exec.Command("sleep", "30"))
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sleeper.Process.Kill(); _ = sleeper.Wait() }) // ours, by pid
	env, _ = call(t, ctx, cs, tools, "perf_cpu_profile", map[string]any{"pid": sleeper.Process.Pid, "duration_seconds": 1})
	if !env.Success {
		t.Errorf("perf_cpu_profile of nobody's own process at paranoid %s: %+v", paranoid, env.Error)
	} else if !strings.Contains(strings.Join(env.Warnings, "\n"), "kernel") {
		t.Errorf("perf_cpu_profile at paranoid %s does not warn that kernel frames are left out: %q", paranoid, env.Warnings)
	}

	var before, after []bpfprog.ExecEvent
	for _, ev := range execs.stop() {
		if int(ev.PPID) != server.Process.Pid {
			continue
		}
		if ev.Time < refusedBy {
			before = append(before, ev)
		} else {
			after = append(after, ev)
		}
	}
	for _, ev := range before {
		t.Errorf("the server started %s (%s) while answering the refused calls", ev.Comm, ev.Filename)
	}
	if !startedPerf(after) {
		t.Errorf("the tracer saw no perf started by the server for the allowed profile (saw %+v, %d records lost): it cannot tell whether the refused calls started any", after, execs.lost)
	}
}

// execWatch records every exec on the host from when it returns.
type execWatch struct {
	cancel context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	events []bpfprog.ExecEvent
	lost   uint64 // records a full ring dropped
}

// watchExecs starts hostmcp's exec tracer in the test's own process (root).
func watchExecs(t *testing.T, serverPID int) *execWatch {
	t.Helper()
	bpfprogtest.Require(t) // this test traces execs with eBPF
	ctx, cancel := context.WithCancel(context.Background())
	w := &execWatch{cancel: cancel, done: make(chan struct{})}
	attached := make(chan struct{})
	var once sync.Once
	go func() {
		defer close(w.done)
		lost, err := bpfprog.ExecTrace(ctx, 5*time.Minute, 0, func(time.Duration) { once.Do(func() { close(attached) }) }, func(ev bpfprog.ExecEvent) {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.events = append(w.events, ev)
		})
		w.mu.Lock()
		w.lost = lost.Lost
		w.mu.Unlock()
		if err != nil && ctx.Err() == nil {
			t.Errorf("tracing execs: %v", err)
		}
		once.Do(func() { close(attached) })
	}()
	t.Cleanup(func() { w.stop() })
	<-attached
	return w
}

// stop ends the trace and returns what it saw, every record read.
func (w *execWatch) stop() []bpfprog.ExecEvent {
	w.cancel()
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]bpfprog.ExecEvent(nil), w.events...)
}

// monotonic is the clock exec records are stamped with.
func monotonic() time.Duration {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	return time.Duration(ts.Nano())
}

func startedPerf(evs []bpfprog.ExecEvent) bool {
	for _, ev := range evs {
		if ev.Comm == "perf" {
			return true
		}
	}
	return false
}
