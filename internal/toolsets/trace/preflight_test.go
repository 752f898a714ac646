package trace

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// Without eBPF every trace tool answers CAPABILITY_MISSING at once, naming
// the procfs tool to use where there is one.
func TestWithoutEBPF(t *testing.T) {
	s := New(nil)
	s.supported = func() error { return fmt.Errorf("the kernel has no BTF: %w", bpfprog.ErrNotSupported) }
	fallbacks := map[string]string{"perf_bio_latency": "perf_io_latency", "perf_runq_latency": "perf_sched_latency", "perf_tcp_trace": "perf_net_health"}
	for _, d := range s.Toolset().Tools {
		start := time.Now()
		// At once: well before the 5 s it was asked to trace.
		_, terr := tooltest.Run[map[string]any](t, context.Background(), d, "test", map[string]any{"duration_seconds": 5})
		if terr == nil || terr.Code != tool.CapabilityMissing || !strings.Contains(terr.Message, "no BTF") || time.Since(start) > 2*time.Second {
			t.Fatalf("%s: %+v", d.Spec.Name, terr)
		}
		if fb, ok := fallbacks[d.Spec.Name]; ok && !strings.Contains(terr.Suggestion, fb) {
			t.Errorf("%s: the suggestion does not name %s: %s", d.Spec.Name, fb, terr.Suggestion)
		}
	}
}
