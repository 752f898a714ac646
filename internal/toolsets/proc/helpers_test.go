package proc

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// TestMain doubles as the helper processes the tests signal: the test
// binary re-executed with HOSTMCP_PROC_HELPER set behaves as asked, so the
// tests need no program but themselves.
func TestMain(m *testing.M) {
	switch os.Getenv("HOSTMCP_PROC_HELPER") {
	case "":
		os.Exit(m.Run())
	case "ignore-term":
		signal.Ignore(syscall.SIGTERM)
		fmt.Println("ready")
		time.Sleep(time.Minute)
	case "sleep":
		fmt.Println("ready")
		time.Sleep(time.Minute)
	case "parent":
		// Two children of its own, which die with it (PR_SET_PDEATHSIG).
		for range 2 {
			c := exec.Command(os.Args[0], "-test.run=^$")
			c.Env = append(os.Environ(), "HOSTMCP_PROC_HELPER=sleep")
			c.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
			if err := c.Start(); err != nil {
				os.Exit(2)
			}
		}
		fmt.Println("ready")
		time.Sleep(time.Minute)
	case "spin":
		fmt.Println("ready")
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		}
	}
	os.Exit(0)
}

// child starts a helper process and ends it by pid when the test ends.
func child(t *testing.T, mode string, attr *syscall.SysProcAttr, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, append([]string{"-test.run=^$"}, args...)...)
	cmd.Env = append(os.Environ(), "HOSTMCP_PROC_HELPER="+mode)
	cmd.SysProcAttr = attr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	wait := func() { once.Do(func() { cmd.Wait() }) }
	t.Cleanup(func() {
		cmd.Process.Kill()
		wait()
	})
	buf := make([]byte, 6)
	if _, err := out.Read(buf); err != nil { // "ready": the helper is running as itself
		t.Fatalf("helper %s did not start: %v", mode, err)
	}
	return cmd
}

// alive reports whether pid still runs (a zombie counts as gone).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	var p int
	var comm, state string
	fmt.Sscan(string(b), &p, &comm, &state)
	return state != "Z"
}

// run calls one tool of a Set through the Runner, as the server does, and
// checks the answer against the tool's outputSchema.
func run(t *testing.T, s *Set, d *tool.Def, args any) tool.Result {
	t.Helper()
	res, _ := runKeeping(t, s, d, args)
	return res
}

// runKeeping is run that also returns the handles the call stored, by id.
func runKeeping(t *testing.T, s *Set, d *tool.Def, args any) (tool.Result, map[string][]byte) {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	handles := map[string][]byte{}
	var mu sync.Mutex
	r := &tool.Runner{Handles: func(_ context.Context, _ string, _ map[string]any, p []byte) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		id := fmt.Sprintf("H_test_%d", len(handles))
		handles[id] = p
		return id, nil
	}}
	res := r.Run(context.Background(), tool.Invocation{Def: d, Args: raw})
	if err := tool.ValidateEnvelope(d, res.JSON); err != nil {
		t.Fatalf("%s: answer does not match outputSchema: %v\n%s", d.Spec.Name, err, res.JSON)
	}
	return res, handles
}

func wantCode(t *testing.T, res tool.Result, code tool.Code) {
	t.Helper()
	if res.Err == nil || res.Err.Code != code {
		t.Fatalf("want %s, got %s", code, res.JSON)
	}
	if res.Err.Suggestion == "" {
		t.Errorf("%s without a suggestion", code)
	}
}

func decode[T any](t *testing.T, res tool.Result) T {
	t.Helper()
	if res.Err != nil {
		t.Fatalf("call failed: %s", res.JSON)
	}
	var v T
	if err := json.Unmarshal(res.Envelope.Data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func newSet(conf config.ProcessConf) *Set { return New(&Deps{Config: conf}) }
