package repl

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/toolsets/repl/sessinit"
)

// TestMain lets the test binary serve as the session init, as the hostmcp
// binary does: sessions re-execute /proc/self/exe.
func TestMain(m *testing.M) {
	sessinit.Main()
	// As the server does at start-up: sessions start only in a hardened
	// process.
	if err := execx.Harden(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// newTestSet builds the toolset over a temporary root with the default
// [repl] settings, changed by edit when it is not nil, and kills whatever
// sessions the test left when it ends.
func newTestSet(t *testing.T, edit func(*config.ReplConf)) *Set {
	t.Helper()
	return newConfigSet(t, func(c *config.Config) {
		if edit != nil {
			edit(&c.Repl)
		}
	})
}

// newConfigSet builds the toolset over a configuration that starts as the
// defaults over a temporary root and is changed by edit.
func newConfigSet(t *testing.T, edit func(*config.Config)) *Set {
	t.Helper()
	cfg := config.Default(t.TempDir(), os.Getuid(), os.Getenv)
	cfg.StateDir = t.TempDir()
	edit(cfg)
	roots, err := fsroot.FromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { roots.Close() })
	s := New(&Deps{Config: cfg, Roots: roots})
	if s.setupErr != nil {
		t.Fatal(s.setupErr)
	}
	t.Cleanup(s.Close)
	return s
}

// run calls one tool through the framework, validating the answer against
// the tool's output schema, and decodes its data.
func run[Out any](t *testing.T, d *tool.Def, session string, args any) (Out, *tool.Error) {
	t.Helper()
	res := callAs(t, d, session, args)
	var out Out
	if res.Err == nil {
		decode(t, res, &out)
	}
	return out, res.Err
}

// call is run's first half, for tests that look at the whole envelope.
func call(t *testing.T, d *tool.Def, args any) tool.Result {
	t.Helper()
	return callAs(t, d, "test", args)
}

func callAs(t *testing.T, d *tool.Def, session string, args any) tool.Result {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res := (&tool.Runner{}).Run(context.Background(), tool.Invocation{Def: d, Args: raw, Session: session})
	if err := tool.ValidateEnvelope(d, res.JSON); err != nil {
		t.Fatalf("%s: answer does not match outputSchema: %v\n%s", d.Spec.Name, err, res.JSON)
	}
	return res
}

// decode reads a successful answer's data into out.
func decode(t *testing.T, res tool.Result, out any) {
	t.Helper()
	if err := json.Unmarshal(res.Envelope.Data, out); err != nil {
		t.Fatal(err)
	}
}

// mustRun is run for calls that must succeed.
func mustRun[Out any](t *testing.T, d *tool.Def, args any) Out {
	t.Helper()
	out, terr := run[Out](t, d, "test", args)
	if terr != nil {
		t.Fatalf("%s(%v): %s: %s", d.Spec.Name, args, terr.Code, terr.Message)
	}
	return out
}

// gone waits up to limit for pid to be gone (or a zombie nobody reaped).
func gone(pid int, limit time.Duration) bool {
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if syscall.Kill(pid, 0) != nil {
			return true
		}
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if i := bytes.LastIndexByte(b, ')'); err == nil && i > 0 && i+2 < len(b) && b[i+2] == 'Z' {
			return true
		}
	}
	return false
}
