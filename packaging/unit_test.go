package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// unitSetting returns the value of key in hostmcp.service's [Service].
func unitSetting(t *testing.T, key string) string {
	t.Helper()
	f, err := os.Open("hostmcp.service")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), key+"="); ok {
			return v
		}
	}
	t.Fatalf("hostmcp.service has no %s=", key)
	return ""
}

// systemd-analyze verify accepts the unit: no unknown key, no bad value,
// an executable ExecStart. It prints nothing when all is well. Verify only
// checks that ExecStart names an executable file, never runs it, so the
// test points it at its own executable rather than paying for a build of
// hostmcp (TestUnitExecStartServes runs the built one from the unit's line).
func TestUnitVerifies(t *testing.T) {
	testutil.RequireBinary(t, "systemd-analyze")
	unit, err := os.ReadFile("hostmcp.service")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(unit), "ExecStart=/usr/bin/hostmcp serve") {
		t.Fatal("ExecStart does not run /usr/bin/hostmcp serve")
	}
	executable, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "hostmcp.service")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(unit), "/usr/bin/hostmcp", executable)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("systemd-analyze", "verify", "--man=no", path).CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// probe is a call a packaged toolset makes, and the capabilities without
// which it fails.
type probe struct {
	tool  string
	args  map[string]any
	needs []string
	// check judges a successful envelope further; nil accepts any success.
	check func(env map[string]any) bool
}

// The unit's capability set serves the packaged toolsets, and each
// capability in it is needed by one of them: the binary runs as root
// under setpriv with exactly the unit's bounding set (and
// NoNewPrivileges), as systemd would start it, and calls a tool of each;
// then once per capability without it, and the tools that need it fail.
func TestUnitCapabilities(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "setpriv")
	testutil.RequireBinary(t, "perf")
	testutil.RequireBinary(t, "bpftrace")
	testutil.RequireBTF(t)
	caps := strings.Fields(unitSetting(t, "CapabilityBoundingSet"))

	// A root like the packaged /var/log: read-only, holding a file root
	// does not own and may not read by its mode.
	root := t.TempDir()
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(root, "other.log")
	if err := os.WriteFile(secret, []byte("another user's log\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(secret, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	// A process of another user, for the tools that read others' /proc.
	other := exec.Command("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sleep", "300")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Process.Kill(); _ = other.Wait() })

	probes := []probe{
		{tool: "perf_runq_latency", args: map[string]any{"duration_seconds": 1}, needs: []string{"CAP_BPF", "CAP_PERFMON"}},
		{tool: "perf_cpu_profile", args: map[string]any{"duration_seconds": 2}, needs: []string{"CAP_PERFMON", "CAP_SYSLOG"},
			check: func(env map[string]any) bool {
				// Kernel frames resolve only with the symbols' addresses.
				b, _ := json.Marshal(env)
				return strings.Contains(string(b), "[kernel.kallsyms]")
			}},
		{tool: "bpftrace_exec_program", args: map[string]any{"program": "tracepoint:syscalls:sys_enter_getpid { @[comm] = count(); } interval:s:1 { exit(); }"},
			needs: []string{"CAP_BPF", "CAP_PERFMON"}},
		{tool: "fs_read", args: map[string]any{"path": "other.log"}, needs: []string{"CAP_DAC_READ_SEARCH"}},
		{tool: "perf_fd_trace", args: map[string]any{"pid": other.Process.Pid, "duration_seconds": 1, "include_fd_list": true},
			needs: []string{"CAP_SYS_PTRACE", "CAP_DAC_READ_SEARCH"},
			check: func(env map[string]any) bool {
				// Its stdin's target: reading another user's links needs ptrace access.
				b, _ := json.Marshal(env)
				return strings.Contains(string(b), "/dev/null")
			}},
		// Its C library uprobes need CAP_SYS_ADMIN, which the unit does not
		// hold: the queries on the wire are traced all the same, with a
		// warning that says so.
		{tool: "perf_dns_latency", args: map[string]any{"duration_seconds": 1}, needs: []string{"CAP_BPF", "CAP_PERFMON"},
			check: func(env map[string]any) bool {
				b, _ := json.Marshal(env["warnings"])
				return strings.Contains(string(b), "only the queries on the wire are traced")
			}},
		{tool: "proc_list", args: map[string]any{}},
		{tool: "sys_snapshot", args: map[string]any{}},
	}

	failed := runProbes(t, caps, root, probes)
	if len(failed) > 0 {
		t.Fatalf("with the unit's capabilities %v, these failed: %v", caps, failed)
	}
	for _, drop := range caps {
		t.Run("without "+drop, func(t *testing.T) {
			var fewer []string
			for _, c := range caps {
				if c != drop {
					fewer = append(fewer, c)
				}
			}
			failed := runProbes(t, fewer, root, probes)
			for _, p := range probes {
				needed := false
				for _, n := range p.needs {
					needed = needed || n == drop
				}
				if needed && failed[p.tool] == "" {
					t.Errorf("%s worked without %s, which the unit holds for it", p.tool, drop)
				}
				if !needed && failed[p.tool] != "" {
					t.Errorf("%s failed without %s: %s", p.tool, drop, failed[p.tool])
				}
			}
		})
	}
}

// runProbes serves hostmcp over stdio as root with only caps in its
// bounding set and calls each probe; it returns why each failed one did.
func runProbes(t *testing.T, caps []string, root string, probes []probe) map[string]string {
	t.Helper()
	bounding := "-all"
	for _, c := range caps {
		bounding += ",+" + strings.ToLower(strings.TrimPrefix(c, "CAP_"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.Command("setpriv", "--bounding-set="+bounding, "--inh-caps=-all", "--no-new-privs",
		hostmcp.Path(t), "serve", "--config", "hostmcp.toml", "--root", root+":ro", "--state-dir", t.TempDir())
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	client := mcp.NewClient(&mcp.Implementation{Name: "packaging-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatalf("starting hostmcp under setpriv: %v", err)
	}
	defer cs.Close()
	// Kernel work for the profile to sample, started by this test.
	busy := exec.Command("dd", "if=/dev/zero", "of=/dev/null", "bs=512", "count=20000000")
	if err := busy.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = busy.Process.Kill(); _ = busy.Wait() }()

	failed := map[string]string{}
	for _, p := range probes {
		env, err := callTool(ctx, cs, p.tool, p.args)
		if err == nil && p.tool == "bpftrace_exec_program" {
			env, err = bpftraceResult(ctx, cs, env)
		}
		switch {
		case err != nil:
			failed[p.tool] = err.Error()
		case p.check != nil && !p.check(env):
			failed[p.tool] = "succeeded without what it needs"
		}
	}
	return failed
}

// callTool calls a tool and returns its envelope, or an error naming the
// envelope's error.
func callTool(ctx context.Context, cs *mcp.ClientSession, name string, args map[string]any) (map[string]any, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(res.StructuredContent)
	var env map[string]any
	if err := json.Unmarshal(b, &env); err != nil {
		return nil, err
	}
	if res.IsError {
		return env, &toolError{string(b)}
	}
	return env, nil
}

type toolError struct{ envelope string }

func (e *toolError) Error() string { return e.envelope }

// bpftraceResult waits for a bpftrace run to end and fails unless it
// completed with output.
func bpftraceResult(ctx context.Context, cs *mcp.ClientSession, started map[string]any) (map[string]any, error) {
	id, _ := started["data"].(map[string]any)["execution_id"].(string)
	for {
		env, err := callTool(ctx, cs, "bpftrace_get_result", map[string]any{"execution_id": id})
		if err != nil {
			return nil, err
		}
		data, _ := env["data"].(map[string]any)
		switch data["status"] {
		case "running":
			time.Sleep(200 * time.Millisecond)
			continue
		case "completed":
			return env, nil
		}
		b, _ := json.Marshal(env)
		return nil, &toolError{"bpftrace ended " + strconv.Quote(string(b))}
	}
}
