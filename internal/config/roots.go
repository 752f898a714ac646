package config

import (
	"path/filepath"
)

// normalize puts paths in the one form later code compares: cleaned, and
// for roots with symlinks resolved and duplicates merged. A root that
// cannot be resolved is left as it is for Validate to report.
func (c *Config) normalize() {
	c.StateDir = cleanPath(c.StateDir)
	c.HTTP.TokenFile = cleanPath(c.HTTP.TokenFile)
	for i, p := range c.Exec.ExtraPath {
		c.Exec.ExtraPath[i] = cleanPath(p)
	}
	c.Roots = mergeRoots(c.Roots)
}

// mergeRoots resolves each root and merges those naming the same
// directory, keeping the first one's place. The stricter setting wins: a
// directory named read-only anywhere is read-only, since an operator who
// wrote :ro once meant it.
func mergeRoots(roots []Root) []Root {
	out := make([]Root, 0, len(roots))
	at := map[string]int{}
	for _, r := range roots {
		r.Path = cleanPath(r.Path)
		if filepath.IsAbs(r.Path) {
			if real, err := filepath.EvalSymlinks(r.Path); err == nil && real != r.Path {
				r.Given, r.Path = r.Path, real
			}
		}
		if i, ok := at[r.Path]; ok {
			out[i].ReadOnly = out[i].ReadOnly || r.ReadOnly
			continue
		}
		at[r.Path] = len(out)
		out = append(out, r)
	}
	return out
}

func cleanPath(p string) string {
	if p == "" {
		return ""
	}
	return filepath.Clean(p)
}
