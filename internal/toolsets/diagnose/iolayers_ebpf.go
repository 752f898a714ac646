package diagnose

import (
	"context"
	"time"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// vfsEBPF is perf_io_layers' eBPF mode: reads and writes on regular files
// counted in the kernel for d, for comparison with the block layer.
func (s *Set) vfsEBPF(ctx context.Context, d time.Duration) (VFSCounts, error) {
	if err := s.deps.EBPFSupported(); err != nil {
		return VFSCounts{}, tool.Wrap(tool.CapabilityMissing, err, "eBPF tracing is not possible here: %v", err).
			WithSuggestion("Use mode procfs, which needs no eBPF; perf_info shows what this host supports.")
	}
	res, err := bpfprog.FileIO(ctx, d, bpfprog.FileIOOptions{Host: s.deps.Host}, nil, nil)
	if err != nil {
		return VFSCounts{}, tool.Failed(err)
	}
	return VFSCounts{ReadOps: res.Read.Calls, WriteOps: res.Write.Calls, ReadBytes: res.Read.Bytes, WriteBytes: res.Write.Bytes,
		Mechanism: bpfprog.FileIOMechanism}, nil
}
