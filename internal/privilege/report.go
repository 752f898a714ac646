package privilege

import (
	"fmt"
	"strings"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// Readiness is whether one use of a privileged tool can run on this host,
// as perf_info reports it: the same judgement the preflight makes.
type Readiness struct {
	Tool    string `json:"tool"`
	Use     string `json:"use,omitempty" jsonschema:"which calls: system-wide, of one process, mode trace..."`
	Needs   string `json:"needs" jsonschema:"what it needs: perf_own, perf_kernel, perf_system, perf_raw (perf_event_paranoid 2, 1, 0, -1 or CAP_PERFMON), ebpf (CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN), bpftrace (root), btf, tracefs"`
	Ready   bool   `json:"ready"`
	Missing string `json:"missing,omitempty" jsonschema:"what this host lacks for it, with the value it holds"`
	// Degraded says what a ready call does without, when it wants more.
	Degraded string   `json:"degraded,omitempty"`
	Instead  []string `json:"instead,omitempty" jsonschema:"tools that answer from /proc without the privilege"`
}

// Report judges every use in the Table that needs something of the kernel
// against c. A use whose program is not installed is not ready.
func (p *Preflight) Report(c hostinfo.Capabilities) []Readiness {
	out := []Readiness{}
	for _, r := range Table() {
		if r.Needs|r.Wants == 0 {
			continue
		}
		rd := Readiness{Tool: r.Tool, Use: r.Use, Needs: r.Needs.String(), Ready: true}
		var missing []string
		if r.Program != "" && !p.hasBinary(r.Program) {
			missing = append(missing, r.Program+" is not installed")
		}
		for _, m := range r.Needs.Missing(c) {
			missing = append(missing, fmt.Sprintf("%s: %s", m.What, m.Found))
		}
		if len(missing) > 0 {
			rd.Ready, rd.Missing = false, strings.Join(missing, "; ")
			for _, a := range r.Instead {
				rd.Instead = append(rd.Instead, strings.TrimSpace(a.Tool+" "+a.Args))
			}
		} else if len(r.Wants.Missing(c)) > 0 {
			rd.Degraded = r.Degraded
		}
		out = append(out, rd)
	}
	return out
}
