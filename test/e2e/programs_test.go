package e2e

import (
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// TestEBPFToolsRunAdmitted runs every tool that loads eBPF programs through
// the built binary, where each call is admitted: eBPF refuses a call that
// holds no program slot, so a tool that does not declare tool.Spec.Programs
// fails here rather than run uncounted.
func TestEBPFToolsRunAdmitted(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireBTF(t)
	ctx := testCtx(t)
	cs := newEnv(t, "").connectStdio(t, ctx)
	tools := listTools(t, ctx, cs)
	for _, name := range []string{"perf_bio_latency", "perf_runq_latency", "perf_tcp_trace", "perf_syscall_count",
		"perf_exec_trace", "perf_file_trace", "perf_dns_latency", "perf_vfs_latency", "perf_io_layers"} {
		args := map[string]any{"duration_seconds": 1}
		if name == "perf_io_layers" {
			args["mode"] = "ebpf"
		}
		if env, _ := call(t, ctx, cs, tools, name, args); !env.Success {
			t.Errorf("%s: %+v", name, env.Error)
		}
	}
}
