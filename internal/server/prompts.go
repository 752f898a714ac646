package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// workflow is one golden workflow of spec 000 section 6, served as a prompt:
// the steps name the tools in order, the ask is the spec's agent prompt.
type workflow struct {
	name, title, ask string
	steps            []string
}

var workflows = []workflow{
	{"quick_triage", "Quick performance triage",
		"Run a quick performance triage. Start with system info, take a metrics snapshot, then analyze using the USE method. Report the top 3 suspected bottlenecks.",
		[]string{"perf_info: understand the system and what this host can measure", "perf_snapshot: baseline metrics", "perf_use_check: USE method analysis", "drill down into the top suspicions"}},
	{"cpu_investigation", "CPU-bound investigation",
		"The system feels slow. CPU shows high utilization. Profile CPU usage for 10 seconds and identify the top CPU consumers.",
		[]string{"perf_snapshot: confirm high CPU utilization", "perf_cpu_profile: on-CPU profile, top functions and flame graph", "perf_sched_latency: check for scheduler delays (with eBPF, perf_runq_latency {per_process: true} ranks who waits for a CPU)"}},
	{"offcpu_investigation", "Latency-bound (off-CPU) investigation",
		"Application response times are high but CPU utilization is low. Analyze off-CPU time to find what the application is waiting on.",
		[]string{"perf_snapshot: confirm low CPU but slow responses", "perf_offcpu_profile: where is time spent waiting", "perf_io_latency: is it I/O bound"}},
	{"memory_pressure", "Memory pressure",
		"Check for memory pressure. Look at available memory, swap usage, page faults, and PSI metrics. Is the system reclaiming aggressively?",
		[]string{"perf_snapshot: memory metrics and PSI", "perf_use_check: memory saturation indicators", "perf_cgroup_summary: container memory limits"}},
	{"block_io", "Block I/O performance",
		"Database queries are slow. Analyze block I/O latency and saturation. Which devices are bottlenecked?",
		[]string{"perf_snapshot: per-device I/O statistics", "perf_io_latency: I/O latency distribution", "perf_use_check: disk saturation (queue depth)"}},
	{"network_issues", "Network issues",
		"Network performance is degraded. Check for packet drops, TCP retransmits, and interface errors.",
		[]string{"perf_net_health: drops, errors, retransmits", "perf_snapshot: interface counters", "optionally perf_syscall_count or perf_tcp_trace to see which process is affected"}},
	{"cgroup_bottlenecks", "Container and cgroup bottlenecks",
		"A containerized application is throttled. Check cgroup CPU and memory limits, throttling events, and PSI.",
		[]string{"perf_info: detect container and cgroup version", "perf_cgroup_summary: CPU throttling and memory limits", "perf_snapshot: PSI metrics"}},
	// The onboarding flows (spec 004 section 3.8), for a first look.
	{"system_health", "System health (onboarding)",
		"Give me a short health report of this machine.",
		[]string{"mcp_run_onboarding {flow_name: system_health}: perf_info, perf_snapshot, perf_use_check, failed services and (with sys_logs on) the last hour's log errors in one report", "for each top suspicion, the golden workflow that drills into it"}},
	{"explain_repo", "Explain a repository (onboarding)",
		"Explain this repository to me: what it is, how it builds and tests, where it starts, and what changed lately. The focus, if given, is its path.",
		[]string{"mcp_run_onboarding {flow_name: explain_repo, path: the focus or the first root}", "fs_read the README and the main entry point for detail", "search_content for what the user asks about next"}},
	{"organize_downloads", "Organize a downloads folder (onboarding)",
		"Tidy up my downloads folder by sorting its files into folders by kind. The focus, if given, is the folder's path. Show me the plan before moving anything.",
		[]string{"mcp_run_onboarding {flow_name: organize_downloads, path} as a dry run: show the proposed moves", "only after the user agrees: the same with apply: true (it never overwrites a file)"}},
}

// focusArg lets the user name what to look at (a service, a pid, a symptom).
var focusArg = &mcp.PromptArgument{Name: "focus", Title: "Focus", Description: "optional: a process, pid, service, device or symptom to concentrate on"}

func addPrompts(srv *mcp.Server) {
	for _, w := range workflows {
		srv.AddPrompt(&mcp.Prompt{
			Name:        w.name,
			Title:       w.title,
			Description: w.ask,
			Arguments:   []*mcp.PromptArgument{focusArg},
		}, w.handler)
	}
}

func (w workflow) text(focus string) string {
	var b strings.Builder
	b.WriteString(w.ask)
	if focus != "" {
		fmt.Fprintf(&b, "\n\nFocus on: %s.", focus)
	}
	b.WriteString("\n\nSteps:\n")
	for i, s := range w.steps {
		fmt.Fprintf(&b, "%d. %s\n", i+1, s)
	}
	b.WriteString("\nIf a tool answers CAPABILITY_MISSING or is not served, say so and continue with the next step. " +
		"Quote the evidence (metric, value, threshold) for every conclusion.")
	return b.String()
}

func (w workflow) handler(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	focus := ""
	if req.Params != nil {
		focus = req.Params.Arguments["focus"]
	}
	return &mcp.GetPromptResult{
		Description: w.title,
		Messages:    []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: w.text(focus)}}},
	}, nil
}
