// Package onboarding is mcp_run_onboarding (spec 004 section 3.8): named
// flows that chain the other toolsets into one short report, for an agent
// or a person meeting a host or a repository for the first time. The flows
// are also served as MCP prompts.
package onboarding

import (
	"context"
	"fmt"
	"time"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Deps are what the flows work through.
type Deps struct {
	Roots *fsroot.Set   // explain_repo and organize_downloads read and move inside them
	Exec  *execx.Runner // git, for explain_repo
}

// Set is the onboarding toolset.
type Set struct{ deps Deps }

// New builds the onboarding toolset.
func New(d *Deps) *Set { return &Set{deps: *d} }

// Flows are the flow names, in the order they are documented.
var Flows = []string{"system_health", "explain_repo", "organize_downloads"}

// Toolset lists the onboarding tool.
func (s *Set) Toolset() tool.Toolset {
	return tool.Toolset{
		Name:           "onboarding",
		Description:    "Guided first looks: system_health, explain_repo and organize_downloads, each one short report.",
		DefaultEnabled: true,
		Tools:          []*tool.Def{s.run()},
	}
}

type runIn struct {
	FlowName string `json:"flow_name" jsonschema:"flow to run"`
	Path     string `json:"path,omitempty" jsonschema:"explain_repo: repository (default the first root); organize_downloads: folder"`
	Apply    bool   `json:"apply,omitempty" jsonschema:"organize_downloads: move files (default: dry run)"`
}

// step is one thing a flow did and what came of it; system_health's are
// the health report's.
type step health.Step

type runOut struct {
	Flow    string `json:"flow"`
	Steps   []step `json:"steps"`
	Summary string `json:"summary"`
	// Details is the flow's structured findings (see docs/onboarding.md).
	Details any `json:"details,omitempty"`
	// Plan is organize_downloads' dry run: what a person would be asked.
	Plan *tool.Plan `json:"plan,omitempty"`
}

func (s *Set) run() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "mcp_run_onboarding",
		Kind:        tool.Mutating, // organize_downloads with apply moves files
		Programs:    true,
		Title:       "Run an onboarding flow",
		Description: "First-look flows: system_health (perf_info, sys_snapshot, perf_use_check, failed services, log errors), explain_repo, organize_downloads.",
		Timeout:     2 * time.Minute,
		Facts:       runFacts,
	}, s.handleRun).WithEnum("flow_name", "system_health", "explain_repo", "organize_downloads").
		WithOpposite("dry_run", "apply")
}

// runFacts are what [confirm] conditions on mcp_run_onboarding test.
var runFacts = []tool.Fact{
	{Name: "flow", Kind: tool.FactString, Doc: "the flow: system_health, explain_repo or organize_downloads"},
	{Name: "moves", Kind: tool.FactNumber, Doc: "files organize_downloads moves (0 for the other flows, which change nothing)"},
}

func (s *Set) handleRun(ctx context.Context, call *tool.Call, in runIn) (runOut, error) {
	switch in.FlowName {
	case "system_health", "explain_repo":
		// These only read; they pass the confirmation gate as such, so
		// that a rule on the flow (flow=explain_repo) still holds.
		if err := call.Confirm(tool.Preview{
			Summary: fmt.Sprintf("Run the read-only onboarding flow %s", in.FlowName),
			Facts:   map[string]any{"flow": in.FlowName, "moves": 0},
			State:   tool.StateOf(in.FlowName, in.Path),
		}); err != nil {
			return runOut{}, err
		}
		if in.FlowName == "system_health" {
			return s.systemHealth(ctx, call)
		}
		return s.explainRepo(ctx, call, in.Path)
	case "organize_downloads":
		return s.organizeDownloads(ctx, call, in.Path, in.Apply)
	}
	return runOut{}, tool.Errorf(tool.InvalidArgument, "unknown flow %q", tool.Clip(in.FlowName))
}
