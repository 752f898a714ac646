package diagnose

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// A listener that never accepts, with a backlog of 1 and two connections
// waiting: perf_net_health lists its full accept queue with this process as
// its holder and names it among the suspicions, for the host and for a pid
// in the same network namespace.
func TestNetHealthListenQueue(t *testing.T) {
	addr := testutil.StuckListener(t, 1, 2)
	for _, args := range []map[string]any{{"interval_ms": 100}, {"interval_ms": 100, "pid": os.Getpid()}} {
		nh := tooltest.MustRun[health.NetCheck](t, context.Background(), newSet().netHealth(), args)
		var got *hostinfo.Listener
		for i := range nh.ListenQueues {
			if nh.ListenQueues[i].Addr == addr {
				got = &nh.ListenQueues[i]
			}
		}
		if got == nil || got.AcceptQueue != 2 || got.Backlog != 1 || got.PID != os.Getpid() {
			t.Fatalf("%v: listener %s in %+v", args, addr, nh.ListenQueues)
		}
		named := false
		for _, x := range nh.Summary.TopSuspicions {
			named = named || x.Metric == health.ThreshListenQueue.Metric && x.Severity == "critical" &&
				strings.HasPrefix(x.Detail, addr+" accept queue 2 of backlog 1, held by pid "+fmt.Sprint(os.Getpid()))
		}
		if !named {
			t.Errorf("%v: the full queue is not among the suspicions: %+v", args, nh.Summary.TopSuspicions)
		}
	}
}
