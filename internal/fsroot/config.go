package fsroot

import (
	"github.com/hostmcp/hostmcp/internal/config"
)

// FromConfig opens the configured roots. A root that cannot be opened
// (removed since the configuration was validated) is left out rather than
// failing the whole server; paths in it are then refused as outside the
// roots. The set lives as long as the process.
func FromConfig(cfg *config.Config) *Set {
	s := &Set{}
	if cfg == nil {
		return s
	}
	for _, r := range cfg.Roots {
		one, err := Open([]Spec{{Path: r.Path, ReadOnly: r.ReadOnly, Alias: r.Given}})
		if err != nil {
			continue
		}
		s.owned = append(s.owned, one.owned...)
		for _, root := range one.roots {
			if s.identify(root) == nil {
				s.roots = append(s.roots, root)
			}
		}
	}
	return s
}
