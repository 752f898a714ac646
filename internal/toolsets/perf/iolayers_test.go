package perf

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
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

// Without an eBPF collector, or when it says eBPF cannot run here, mode
// ebpf answers CAPABILITY_MISSING and auto measures from procfs.
func TestIOLayersEBPFFallback(t *testing.T) {
	missing := func(context.Context, time.Duration) (VFSCounts, error) {
		return VFSCounts{}, tool.Wrap(tool.CapabilityMissing, errors.New("no BTF"), "eBPF tracing is not possible here: no BTF")
	}
	for _, collector := range []IOLayersEBPF{nil, missing} {
		s := New(&Deps{Host: hostinfo.New(hostinfo.Roots{}), IOLayersEBPF: collector})
		_, terr := tooltest.Run[ioLayersOut](t, context.Background(), s.ioLayers(), "test", map[string]any{"duration_seconds": 1, "mode": "ebpf"})
		if terr == nil || terr.Code != tool.CapabilityMissing {
			t.Fatalf("mode ebpf: %+v", terr)
		}
		out := tooltest.MustRun[ioLayersOut](t, context.Background(), s.ioLayers(), map[string]any{"duration_seconds": 1})
		if out.Mode != "procfs" || out.VFS.Mechanism != "procfs" {
			t.Fatalf("auto: %+v", out)
		}
	}
}
