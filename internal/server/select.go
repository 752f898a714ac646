package server

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// selectTools applies the configuration's choice of toolsets and read-only
// mode. The core toolset is always served; unknown toolset or tool names are
// errors, so a typo in the configuration is not a silently missing tool.
func selectTools(cfg *config.Config, sets []tool.Toolset) ([]tool.Toolset, error) {
	known := map[string]bool{}
	var allTools []string
	for _, ts := range sets {
		known[ts.Name] = true
		for _, d := range ts.Tools {
			allTools = append(allTools, d.Spec.Name)
		}
	}
	if err := cfg.CheckToolNames(allTools); err != nil {
		return nil, err
	}
	want := cfg.Toolsets.Enabled
	for _, name := range want {
		if !known[name] {
			return nil, fmt.Errorf("toolset %q is not built into this binary (have: %s)", name, strings.Join(sortedKeys(known), ", "))
		}
	}
	var out []tool.Toolset
	seen := map[string]bool{}
	for _, ts := range sets {
		on := ts.Name == "core" || (len(want) == 0 && ts.DefaultEnabled) || slices.Contains(want, ts.Name)
		if !on {
			continue
		}
		served := ts
		served.Tools = nil
		for _, d := range ts.Tools {
			if cfg.Toolsets.ReadOnly && d.Spec.Kind != tool.ReadOnly {
				continue
			}
			if !toolEnabled(cfg, d.Spec) {
				continue
			}
			if seen[d.Spec.Name] {
				return nil, fmt.Errorf("tool %q is defined twice", d.Spec.Name)
			}
			seen[d.Spec.Name] = true
			served.Tools = append(served.Tools, d)
		}
		if len(served.Tools) > 0 {
			out = append(out, served)
		}
	}
	return out, nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// toolEnabled applies [tools.<name>] enabled over the tool's own default.
func toolEnabled(cfg *config.Config, spec tool.Spec) bool {
	if tc, ok := cfg.Tools[spec.Name]; ok && tc.Enabled != nil {
		return *tc.Enabled
	}
	return !spec.OffByDefault
}
