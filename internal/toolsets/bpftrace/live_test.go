package bpftrace

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

func newSet(t *testing.T, edit func(*config.BpftraceConf)) *Set {
	t.Helper()
	ex, err := execx.New(&execx.Options{Allowed: []string{"bpftrace"}})
	if err != nil {
		t.Fatal(err)
	}
	conf := config.DefaultBpftrace()
	if edit != nil {
		edit(&conf)
	}
	s := New(&Deps{Exec: ex, Config: conf})
	t.Cleanup(s.jobs.Close)
	return s
}

// liveSet skips (or fails under HOSTMCP_REQUIRE_PRIVILEGED) without root and bpftrace.
func liveSet(t *testing.T, edit func(*config.BpftraceConf)) *Set {
	t.Helper()
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "bpftrace")
	return newSet(t, edit)
}

func run[Out any](t *testing.T, d *tool.Def, args any) (Out, *tool.Error) {
	t.Helper()
	return tooltest.Run[Out](t, context.Background(), d, "test", args)
}

// wait polls a run until it is no longer running.
func wait(t *testing.T, s *Set, id string) resultOut {
	t.Helper()
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		r, terr := run[resultOut](t, s.getResult(), map[string]any{"execution_id": id, "limit": 1000})
		if terr != nil {
			t.Fatal(terr)
		}
		if r.Status != "running" {
			return r
		}
	}
	t.Fatal("the run never finished")
	return resultOut{}
}

// A tracepoint program counting this test process's own syscalls returns
// them as a structured map.
func TestCountsOwnSyscalls(t *testing.T) {
	s := liveSet(t, nil)
	prog := fmt.Sprintf("tracepoint:raw_syscalls:sys_enter /pid == %d/ { @calls[args->id] = count(); } interval:ms:1500 { exit(); }", os.Getpid())
	st, terr := run[execOut](t, s.execProgram(), map[string]any{"program": prog})
	if terr != nil {
		t.Fatal(terr)
	}
	stopMaking := make(chan struct{})
	go func() { // syscalls of ours to be counted
		for {
			select {
			case <-stopMaking:
				return
			default:
				_, _ = os.Stat("/")
				time.Sleep(time.Millisecond)
			}
		}
	}()
	r := wait(t, s, st.ExecutionID)
	close(stopMaking)
	if r.Status != "completed" || r.ExitCode == nil || *r.ExitCode != 0 {
		t.Fatalf("run: %+v", r)
	}
	var total int64
	for _, x := range r.Output {
		rec, _ := json.Marshal(x)
		var m struct {
			Type string                      `json:"type"`
			Data map[string]map[string]int64 `json:"data"`
		}
		if json.Unmarshal(rec, &m) == nil && m.Type == "map" {
			for _, n := range m.Data["@calls"] {
				total += n
			}
		}
	}
	if total < 100 {
		t.Fatalf("counted %d of our syscalls; output %s", total, r.Output)
	}
}

// A syntax error comes back at once with its line and column.
func TestSyntaxErrorPosition(t *testing.T) {
	s := liveSet(t, nil)
	_, terr := run[execOut](t, s.execProgram(), map[string]any{"program": "BEGIN {\n  printf(\"hi\\n\" }"})
	if terr == nil || terr.Code != tool.InvalidArgument || !strings.HasPrefix(terr.Message, "line 2, column 17:") {
		t.Fatalf("want the position of the error, got %+v", terr)
	}
}

// Unsafe builtins are refused before bpftrace sees them.
func TestUnsafeRefused(t *testing.T) {
	s := newSet(t, nil)
	if s.available() != nil {
		t.Skip("bpftrace is not installed")
	}
	_, terr := run[execOut](t, s.execProgram(), map[string]any{"program": `BEGIN { system("id"); }`})
	if terr == nil || terr.Code != tool.CommandNotAllowed {
		t.Fatalf("system() was not refused: %+v", terr)
	}
}

// A program that outlives its timeout ends as timeout with its partial
// output (the ticks printed, and the map printed on SIGINT); the buffer cap
// holds; stop ends a run; the concurrency limit holds.
func TestTimeoutCapStopAndLimit(t *testing.T) {
	s := liveSet(t, func(c *config.BpftraceConf) { c.MaxLines = 100; c.MaxConcurrent = 2 })
	st, terr := run[execOut](t, s.execProgram(), map[string]any{"program": `interval:ms:10 { @ticks = count(); printf("tick\n"); }`, "timeout": 3})
	if terr != nil {
		t.Fatal(terr)
	}
	other, terr := run[execOut](t, s.execProgram(), map[string]any{"program": `interval:s:1 { printf("x\n"); }`, "timeout": 60})
	if terr != nil {
		t.Fatal(terr)
	}
	if _, terr := run[execOut](t, s.execProgram(), map[string]any{"program": `interval:s:1 { printf("y\n"); }`}); terr == nil || terr.Code != tool.LimitReached {
		t.Fatalf("a third concurrent run: %+v", terr)
	}
	r := wait(t, s, st.ExecutionID)
	if r.Status != "timeout" || r.LinesTotal != 100 || r.LinesDropped < 50 || len(r.Output) != 100 {
		t.Fatalf("timed-out run: status %s, %d kept, %d dropped", r.Status, r.LinesTotal, r.LinesDropped)
	}
	stopped, terr := run[resultOut](t, s.stop(), map[string]any{"execution_id": other.ExecutionID})
	if terr != nil || stopped.Status != "stopped" {
		t.Fatalf("stop: %+v %v", stopped, terr)
	}
	if _, terr := run[resultOut](t, s.getResult(), map[string]any{"execution_id": "X_nope"}); terr == nil || terr.Code != tool.NotFound {
		t.Fatalf("unknown id: %+v", terr)
	}
}

// Probe listing pages, with the total.
func TestListProbesPages(t *testing.T) {
	s := liveSet(t, nil)
	a, terr := run[probesOut](t, s.listProbes(), map[string]any{"filter": "tracepoint:syscalls:sys_enter_*", "limit": 10})
	if terr != nil || len(a.Probes) != 10 || a.Total < 100 || !a.HasMore {
		t.Fatalf("%+v %v", a, terr)
	}
	b, _ := run[probesOut](t, s.listProbes(), map[string]any{"filter": "tracepoint:syscalls:sys_enter_*", "offset": 10, "limit": 10})
	if b.Total != a.Total || b.Probes[0] == a.Probes[0] || !strings.HasPrefix(b.Probes[0], "tracepoint:syscalls:sys_enter_") {
		t.Fatalf("second page %+v", b)
	}
	h, terr := run[helpersOut](t, s.listHelpers(), map[string]any{})
	if terr != nil || len(h.Helpers) < 20 || !strings.Contains(h.Info, "version") {
		t.Fatalf("helpers: %v %q", terr, h.Info)
	}
}
