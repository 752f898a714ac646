package system

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

func TestSnapshotLive(t *testing.T) {
	d := New(&Deps{Host: hostinfo.New(hostinfo.Roots{})}).snapshot()
	res := (&tool.Runner{}).Run(context.Background(), tool.Invocation{Def: d})
	if res.Err != nil {
		t.Fatalf("sys_snapshot failed: %s", res.JSON)
	}
	if err := tool.ValidateEnvelope(d, res.JSON); err != nil {
		t.Fatalf("answer does not match outputSchema: %v", err)
	}
	var snap hostinfo.Snapshot
	if err := json.Unmarshal(res.Envelope.Data, &snap); err != nil {
		t.Fatal(err)
	}
	if snap.CPUPercent < 0 || snap.CPUPercent > 100 || snap.MemTotalMB == 0 || len(snap.Disks) == 0 || snap.ShortSummary == "" {
		t.Errorf("implausible snapshot: %+v", snap)
	}
	if res.Duration.Milliseconds() < 90 {
		t.Errorf("took %s: the CPU figure needs its 100 ms sampling window", res.Duration)
	}
}

// A cancelled call stops inside the sampling window.
func TestSnapshotCancelled(t *testing.T) {
	d := New(&Deps{Host: hostinfo.New(hostinfo.Roots{})}).snapshot()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := (&tool.Runner{}).Run(ctx, tool.Invocation{Def: d})
	if res.Err == nil || res.Err.Code != tool.Cancelled {
		t.Fatalf("want CANCELLED, got %s", res.JSON)
	}
}
