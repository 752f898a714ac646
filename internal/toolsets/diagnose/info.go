package diagnose

import (
	"context"
	"time"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/privilege"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type infoIn struct{}

// infoOut is perf_info's answer: what the host is and can measure, and
// which privileged tools can run on it, judged as their preflight will
// judge a call.
type infoOut struct {
	hostinfo.Info
	PrivilegedTools []privilege.Readiness `json:"privileged_tools" jsonschema:"each use of a tool that needs more than /proc (perf, bpftrace, eBPF): ready here, or what is missing and the tools to use instead"`
}

func (s *Set) info() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_info",
		Kind:        tool.ReadOnly,
		Title:       "Host and capability info",
		Description: "What this host is (kernel, CPU, memory, VM, cgroups) and can measure (perf, eBPF, BTF, PSI), and which privileged tools may run; call it first.",
		Timeout:     5 * time.Second,
	}, s.handleInfo)
}

func (s *Set) handleInfo(ctx context.Context, call *tool.Call, _ infoIn) (infoOut, error) {
	info, err := s.deps.Host.Info(ctx, &hostinfo.InfoOptions{HasBinary: s.hasBinary})
	if err != nil {
		return infoOut{}, tool.Wrap(tool.ExecutionFailed, err, "reading host information: %v", err)
	}
	for _, w := range info.Warnings {
		call.Warn("%s", w)
	}
	info.Warnings = nil
	out := infoOut{Info: info, PrivilegedTools: []privilege.Readiness{}}
	if s.deps.Privileges != nil {
		out.PrivilegedTools = s.deps.Privileges.Report(info.Capabilities)
	}
	return out, nil
}

func (s *Set) hasBinary(name string) bool {
	return s.deps.Exec != nil && s.deps.Exec.Available(name)
}
