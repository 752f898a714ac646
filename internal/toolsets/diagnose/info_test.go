package diagnose

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// TestInfoLive runs perf_info on this host through the framework and checks
// the answer against its outputSchema and the facts the test can see.
func TestInfoLive(t *testing.T) {
	ex, err := execx.New(&execx.Options{Allowed: []string{"perf", "bpftrace", "bpftool"}})
	if err != nil {
		t.Fatal(err)
	}
	s := New(&Deps{Host: hostinfo.New(hostinfo.Roots{}), Exec: ex})
	d := s.info()
	res := (&tool.Runner{}).Run(context.Background(), tool.Invocation{Def: d})
	if res.Err != nil {
		t.Fatalf("perf_info failed: %s", res.JSON)
	}
	if err := tool.ValidateEnvelope(d, res.JSON); err != nil {
		t.Fatalf("answer does not match outputSchema: %v", err)
	}
	var info hostinfo.Info
	if err := json.Unmarshal(res.Envelope.Data, &info); err != nil {
		t.Fatal(err)
	}
	if info.CPU.Threads != runtime.NumCPU() {
		t.Errorf("threads = %d, runtime sees %d", info.CPU.Threads, runtime.NumCPU())
	}
	if got, want := info.Capabilities.PerfAvailable, ex.Available("perf"); got != want {
		t.Errorf("perf_available = %v, but the runner found perf: %v", got, want)
	}
	if info.System.Kernel == "" || info.Memory.TotalBytes == 0 {
		t.Errorf("implausible info: %+v", info)
	}
}
