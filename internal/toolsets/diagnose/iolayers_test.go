package diagnose

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/bpfprog/bpfprogtest"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/privilege"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// A process rereading a cached file shows as VFS reads that never reach
// the disk: a read hit rate near 100%.
func TestIOLayersProcfs(t *testing.T) {
	testutil.ExclusiveLoad(t) // a busy workload
	f := filepath.Join(t.TempDir(), "cached")
	if err := os.WriteFile(f, make([]byte, 4<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	startWorkload(t, nil, "reread", f)
	out := tooltest.MustRun[ioLayersOut](t, context.Background(), newSet().ioLayers(), map[string]any{"duration_seconds": 1, "mode": "procfs", "include_details": true})
	if out.Mode != "procfs" || out.VFS.ReadBytes < 16<<20 || out.ReadHitRatePercent == nil || *out.ReadHitRatePercent < 90 {
		t.Fatalf("%+v (hit rate %v)", out, out.ReadHitRatePercent)
	}
	if len(out.Processes) == 0 || out.Processes[0].VFSReadBytes < 16<<20 {
		t.Fatalf("the rereading process is not the top one: %+v", out.Processes)
	}
}

// Where eBPF cannot run, mode ebpf answers CAPABILITY_MISSING with the
// reason, and auto measures from procfs.
func TestIOLayersEBPFFallback(t *testing.T) {
	noBTF := func() error { return fmt.Errorf("the kernel has no BTF: %w", bpfprog.ErrNotSupported) }
	s := New(&Deps{Host: hostinfo.New(hostinfo.Roots{}), EBPFSupported: noBTF})
	_, terr := tooltest.Run[ioLayersOut](t, context.Background(), s.ioLayers(), "test", map[string]any{"duration_seconds": 1, "mode": "ebpf"})
	if terr == nil || terr.Code != tool.CapabilityMissing || !strings.Contains(terr.Message, "no BTF") || !strings.Contains(terr.Suggestion, "procfs") {
		t.Fatalf("mode ebpf: %+v", terr)
	}
	out := tooltest.MustRun[ioLayersOut](t, context.Background(), s.ioLayers(), map[string]any{"duration_seconds": 1})
	if out.Mode != "procfs" || out.VFS.Mechanism != "procfs" {
		t.Fatalf("auto: %+v", out)
	}
}

// In auto mode the privilege preflight decides: where it would refuse
// mode ebpf (here: no capability to load programs), the eBPF collector is
// not started at all and the answer comes from procfs, with a warning
// saying what is missing.
func TestIOLayersAutoAsksThePreflight(t *testing.T) {
	dir := t.TempDir()
	for rel, content := range map[string]string{
		"proc/self/status":                    "Uid:\t65534\t65534\t65534\t65534\nGid:\t65534\t65534\t65534\t65534\nCapEff:\t0000000000000000\nCapAmb:\t0000000000000000\n",
		"proc/self/mountinfo":                 "42 23 0:13 / /sys/kernel/tracing rw,relatime - tracefs nodev rw\n",
		"proc/sys/kernel/perf_event_paranoid": "2\n",
		"sys/kernel/btf/vmlinux":              "",
		"sys/fs/bpf/.keep":                    "",
	} {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	unprivileged := privilege.New(hostinfo.New(hostinfo.Roots{Proc: filepath.Join(dir, "proc"), Sys: filepath.Join(dir, "sys"), RootFS: dir}), nil)
	started := 0
	probe := func() error { started++; return nil }
	s := New(&Deps{Host: hostinfo.New(hostinfo.Roots{}), EBPFSupported: probe, Privileges: unprivileged})
	res := (&tool.Runner{}).Run(context.Background(), tool.Invocation{Def: s.ioLayers(), Args: json.RawMessage(`{"duration_seconds":1}`)})
	var out ioLayersOut
	if res.Err != nil || json.Unmarshal(res.Envelope.Data, &out) != nil {
		t.Fatalf("auto: %s", res.JSON)
	}
	warnings := res.Envelope.Warnings
	if out.Mode != "procfs" || started != 0 {
		t.Fatalf("auto ran mode %s, the eBPF collector started %d times", out.Mode, started)
	}
	if !strings.Contains(strings.Join(warnings, "\n"), "CAP_BPF") {
		t.Errorf("the fallback does not say what is missing: %q", warnings)
	}
}

// Mode ebpf counts a reader's calls in the kernel, by the eBPF attach
// points, with no collector handed in from another toolset.
func TestIOLayersEBPFLive(t *testing.T) {
	bpfprogtest.Require(t)
	testutil.ExclusiveLoad(t) // a busy reader
	f := filepath.Join(t.TempDir(), "data")
	if err := os.WriteFile(f, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	sh := exec.Command("sh", "-c", `exec 3<"$0"; while :; do read -r x <&3 || exec 3<"$0"; done`, f)
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sh.Process.Kill(); _ = sh.Wait() })
	s := New(&Deps{Host: hostinfo.New(hostinfo.Roots{})})
	out := tooltest.MustRun[ioLayersOut](t, context.Background(), s.ioLayers(), map[string]any{"duration_seconds": 1, "mode": "ebpf"})
	if out.Mode != "ebpf" || out.VFS.ReadOps < 50 || out.VFS.Mechanism != bpfprog.FileIOMechanism {
		t.Fatalf("mode ebpf: %+v", out)
	}
}
