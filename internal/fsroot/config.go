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
		one, err := Open([]Spec{{Path: r.Path, ReadOnly: r.ReadOnly}})
		if err != nil {
			continue
		}
		s.roots = append(s.roots, one.roots...)
		s.owned = append(s.owned, one.owned...)
	}
	return s
}
