package fsroot

import (
	"path/filepath"
)

// Narrow returns the intersection of this set with a client's MCP roots
// (absolute paths, from file:// URIs). A client root inside an allowed root
// becomes a root of its own, opened through the allowed one so the kernel
// still enforces containment; a client root that contains an allowed root
// keeps that root as it is; anything else is dropped. The result never
// reaches further than s. It shares s's open roots: close s, not it.
func (s *Set) Narrow(client []string) *Set {
	out := &Set{}
	seen := map[string]bool{}
	add := func(r *Root) {
		if !seen[r.Path] {
			seen[r.Path] = true
			out.roots = append(out.roots, r)
		}
	}
	for _, c := range client {
		if !filepath.IsAbs(c) {
			continue
		}
		c = filepath.Clean(c)
		for _, r := range s.roots {
			if _, ok := within(c, r.Path); ok { // the client root contains r
				add(r)
				continue
			}
			rel, ok := within(r.Path, c)
			if !ok {
				continue
			}
			sub, err := r.r.OpenRoot(rel) // refuses a symlink out of r
			if err != nil {
				continue
			}
			out.owned = append(out.owned, sub)
			add(&Root{Path: c, ReadOnly: r.ReadOnly, r: sub})
		}
	}
	return out
}
