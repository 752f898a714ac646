package perf

import (
	"context"
	"time"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type infoIn struct{}

func (s *Set) info() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_info",
		Kind:        tool.ReadOnly,
		Title:       "Host and capability info",
		Description: "What this host is (kernel, CPU, memory, VM, cgroups) and can measure (perf, eBPF, BTF, PSI); call it first.",
		Timeout:     5 * time.Second,
	}, s.handleInfo)
}

func (s *Set) handleInfo(ctx context.Context, call *tool.Call, _ infoIn) (hostinfo.Info, error) {
	info, err := s.deps.Host.Info(ctx, &hostinfo.InfoOptions{HasBinary: s.hasBinary})
	if err != nil {
		return hostinfo.Info{}, tool.Wrap(tool.ExecutionFailed, err, "reading host information: %v", err)
	}
	for _, w := range info.Warnings {
		call.Warn("%s", w)
	}
	info.Warnings = nil
	return info, nil
}

func (s *Set) hasBinary(name string) bool {
	return s.deps.Exec != nil && s.deps.Exec.Available(name)
}
