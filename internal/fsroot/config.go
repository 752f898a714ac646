package fsroot

import (
	"github.com/hostmcp/hostmcp/internal/config"
)

// FromConfig opens the configured roots, once, at start-up. A root that
// cannot be opened (removed or unmounted since the configuration was
// validated) is an error naming it, as Open's are: serving fewer roots
// than the operator named would hide it. The caller closes the set.
func FromConfig(cfg *config.Config) (*Set, error) {
	if cfg == nil {
		return &Set{}, nil
	}
	specs := make([]Spec, 0, len(cfg.Roots))
	for _, r := range cfg.Roots {
		specs = append(specs, Spec{Path: r.Path, ReadOnly: r.ReadOnly, Alias: r.Given})
	}
	return Open(specs)
}
